import { useEffect, useRef } from 'preact/hooks';
import { isHttpsUrl } from './brand.ts';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, t } from './i18n/index.ts';
import { useSession } from './session.tsx';

/** Set when the reader picks a language: the pages mount again in it, and the menu takes focus back. */
let focusMenuOnMount = false;

/**
 * The foot of every hosted page: the language menu, and the tenant's privacy policy and terms when it has set them
 * (merchant settings). The links open in a new tab, so that a sign-in under way is not lost.
 */
export function SiteFooter() {
  const { tenant, language, setLanguage } = useSession();
  const menu = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (focusMenuOnMount) menu.current?.focus();
    focusMenuOnMount = false;
  }, []);
  const links = [
    { href: tenant.privacyPolicyUrl, label: t('footer.privacy') },
    { href: tenant.termsUrl, label: t('footer.terms') },
  ].filter((link): link is { href: string; label: string } => !!link.href && isHttpsUrl(link.href));
  return (
    <footer class="site-footer">
      {links.length > 0 && (
        <ul aria-label={t('footer.policies', { name: tenant.name })}>
          {links.map((link) => (
            <li key={link.label}>
              <a href={link.href} target="_blank" rel="noopener">
                {link.label}
                <span class="visually-hidden"> {t('footer.newTab')}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <label class="language-menu">
        <span>{t('footer.language')}</span>
        <select
          ref={menu}
          value={language}
          onChange={(event) => {
            const next = event.currentTarget.value;
            if (!isLanguage(next)) return;
            focusMenuOnMount = true;
            setLanguage(next);
          }}
        >
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </label>
    </footer>
  );
}
