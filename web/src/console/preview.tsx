import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type Brand, darkPair } from '../brand.ts';
import type { LoginMode, SignupMode } from '../sdk.ts';
import { applyBrand } from '../tenant.ts';
import { BrandMark } from '../ui.tsx';

/**
 * The sign-in page as it will look with the settings being edited: a static
 * replica of its card (brand mark, title, fields, button, links) in a frame
 * whose brand custom properties are set with `applyBrand`, as main.tsx does
 * for the whole page. Nothing in it can be focused or submitted; it is hidden
 * from assistive technology, which reads the caption's description instead.
 *
 * It shows the light colours or the dark ones, as the two radio buttons above it choose (at first, the scheme the
 * admin's own device asks for): the frame takes the palette of its scheme (`.scheme-light`, `.scheme-dark` in
 * styles.css) whatever the page around it wears.
 */
export function SignInPreview(props: { brand: Brand; loginMode: LoginMode; signupMode: SignupMode }) {
  const { brand, loginMode, signupMode } = props;
  const frame = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const [scheme, setScheme] = useState<'light' | 'dark'>(() =>
    matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
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
  const colours =
    scheme === 'light'
      ? `${brand.primaryColor ?? 'the default colour'} on ${brand.secondaryColor ?? 'the default background'}`
      : `${darkPair(brand).primary} on ${darkPair(brand).secondary}`;
  const password = loginMode !== 'OTP_EMAIL';
  const choice = loginMode === 'PASSWORD_OR_OTP_EMAIL';
  return (
    <figure class="preview" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        Preview of your sign-in page
        <span class="visually-hidden">
          {' '}
          in {scheme} mode: “Sign in to {brand.name}”, in {colours}.
        </span>
      </figcaption>
      <fieldset class="preview-scheme">
        <legend class="visually-hidden">Preview in</legend>
        {(['light', 'dark'] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="previewScheme"
              value={value}
              checked={scheme === value}
              onChange={() => setScheme(value)}
            />
            {value === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </fieldset>
      <div
        class={`preview-page scheme-${scheme}`}
        ref={frame}
        aria-hidden="true"
        data-testid="sign-in-preview"
        data-scheme={scheme}
      >
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
