import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import type { Brand } from '../brand.ts';
import type { LoginMode, SignupMode } from '../sdk.ts';
import { applyBrand } from '../tenant.ts';
import { BrandMark } from '../ui.tsx';

/**
 * The sign-in page as it will look with the settings being edited: a static
 * replica of its card (brand mark, title, fields, button, links) in a frame
 * whose brand custom properties are set with `applyBrand`, as main.tsx does
 * for the whole page, in the light scheme (`.scheme-light`). Nothing in it can be focused or submitted; it is hidden
 * from assistive technology, which reads the caption's description instead.
 */
export function SignInPreview(props: { brand: Brand; loginMode: LoginMode; signupMode: SignupMode }) {
  const { brand, loginMode, signupMode } = props;
  const frame = useRef<HTMLDivElement>(null);
  const captionId = useId();
  useLayoutEffect(() => {
    if (frame.current) applyBrand(frame.current, brand);
  }, [
    brand.name,
    brand.logoUrl,
    brand.primaryColor,
    brand.secondaryColor,
    brand.darkPrimaryColor,
    brand.darkSecondaryColor,
  ]);
  const password = loginMode !== 'OTP_EMAIL';
  const choice = loginMode === 'PASSWORD_OR_OTP_EMAIL';
  return (
    <figure class="preview" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        Preview of your sign-in page
        <span class="visually-hidden">
          : “Sign in to {brand.name}”, in {brand.primaryColor ?? 'the default colour'} on{' '}
          {brand.secondaryColor ?? 'the default background'}.
        </span>
      </figcaption>
      <div class="preview-page scheme-light" ref={frame} aria-hidden="true" data-testid="sign-in-preview">
        <div class="card preview-card">
          <BrandMark name={brand.name} logoUrl={brand.logoUrl} />
          <p class="preview-title">Sign in to {brand.name}</p>
          {choice && (
            <div class="preview-choice">
              <span class="preview-label">How do you want to sign in?</span>
              <span>
                <span class="preview-radio checked" /> With my password
              </span>
              <span>
                <span class="preview-radio" /> With a code sent to my e-mail
              </span>
            </div>
          )}
          <div class="preview-field">
            <span class="preview-label">E-mail address</span>
            <span class="preview-input" />
          </div>
          {password && (
            <div class="preview-field">
              <span class="preview-label">Password</span>
              <span class="preview-input" />
            </div>
          )}
          <span class="button primary preview-button">{password ? 'Sign in' : 'E-mail me a code'}</span>
          <div class="preview-links">
            {password && <span class="preview-link">Forgot your password?</span>}
            <span class="preview-link">
              {signupMode === 'OPEN' ? 'Create an account' : 'Have an invitation? Sign up'}
            </span>
          </div>
        </div>
      </div>
    </figure>
  );
}
