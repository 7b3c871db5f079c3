import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type Brand, darkPair } from '../brand.ts';
import { t } from '../i18n/index.ts';
import type { LoginMode, SignupMode } from '../sdk.ts';
import { applyBrand } from '../tenant.ts';
import { BrandMark } from '../ui.tsx';

/**
 * The sign-in page as it will look with the settings being edited: a static
 * replica of its card (brand mark, title, fields, button, links) in a frame
 * whose brand custom properties are set with `applyBrand`, as main.tsx does
 * for the whole page. Nothing in it can be focused or submitted; it is hidden
 * from assistive technology, which reads the caption's description instead. Its words are the sign-in page's own
 * (`signIn.…`, always loaded), in the language the admin reads the console in.
 *
 * It shows the light colours or the dark ones, as the two radio buttons above it choose (at first, the scheme the
 * admin's own device asks for): the frame takes the palette of its scheme (`.scheme-light`, `.scheme-dark` in
 * styles.css) whatever the page around it wears.
 */
export function SignInPreview(props: {
  brand: Brand;
  loginMode: LoginMode;
  signupMode: SignupMode;
  /** The passkey button shows where passkeys are on (browsers that have WebAuthn show it). */
  passkeys: boolean;
}) {
  const { brand, loginMode, signupMode, passkeys } = props;
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
      ? t('preview.colours', {
          primary: brand.primaryColor ?? t('preview.defaultColour'),
          secondary: brand.secondaryColor ?? t('preview.defaultBackground'),
        })
      : t('preview.colours', { primary: darkPair(brand).primary, secondary: darkPair(brand).secondary });
  const title = t('signIn.title', { name: brand.name });
  const password = loginMode !== 'OTP_EMAIL';
  const choice = loginMode === 'PASSWORD_OR_OTP_EMAIL';
  return (
    <figure class="preview" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        {t('preview.caption')}
        <span class="visually-hidden">
          {' '}
          {t(scheme === 'light' ? 'preview.describedLight' : 'preview.describedDark', { title, colours })}
        </span>
      </figcaption>
      <fieldset class="preview-scheme">
        <legend class="visually-hidden">{t('preview.scheme')}</legend>
        {(['light', 'dark'] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="previewScheme"
              value={value}
              checked={scheme === value}
              onChange={() => setScheme(value)}
            />
            {t(value === 'light' ? 'preview.light' : 'preview.dark')}
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
          <p class="preview-title">{title}</p>
          {choice && (
            <div class="preview-choice">
              <span class="preview-label">{t('signIn.how')}</span>
              <span>
                <span class="preview-radio checked" /> {t('signIn.withPassword')}
              </span>
              <span>
                <span class="preview-radio" /> {t('signIn.withCode')}
              </span>
            </div>
          )}
          <div class="preview-field">
            <span class="preview-label">{t('signIn.email')}</span>
            <span class="preview-input" />
          </div>
          {password && (
            <div class="preview-field">
              <span class="preview-label">{t('signIn.password')}</span>
              <span class="preview-input" />
            </div>
          )}
          <span class="button primary preview-button">{t(password ? 'signIn.submit' : 'signIn.sendCode')}</span>
          {passkeys && (
            <>
              <p class="or">{t('passkey.or')}</p>
              <span class="button secondary preview-passkey">{t('passkey.signIn')}</span>
            </>
          )}
          <div class="preview-links">
            {password && <span class="preview-link">{t('signIn.forgot')}</span>}
            <span class="preview-link">{t(signupMode === 'OPEN' ? 'signIn.createAccount' : 'signIn.invited')}</span>
          </div>
        </div>
      </div>
    </figure>
  );
}
