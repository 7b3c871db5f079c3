import { isHttpsUrl } from './brand.ts';
import { useSession } from './session.tsx';

/**
 * The foot of every hosted page: the tenant's privacy policy and terms, when it has set them (merchant settings).
 * They open in a new tab, so that a sign-in under way is not lost; nothing is shown when neither is set.
 */
export function SiteFooter() {
  const { tenant } = useSession();
  const links = [
    { href: tenant.privacyPolicyUrl, label: 'Privacy policy' },
    { href: tenant.termsUrl, label: 'Terms of service' },
  ].filter((link): link is { href: string; label: string } => !!link.href && isHttpsUrl(link.href));
  if (links.length === 0) return null;
  return (
    <footer class="site-footer">
      <ul aria-label={`${tenant.name}’s policies`}>
        {links.map((link) => (
          <li key={link.label}>
            <a href={link.href} target="_blank" rel="noopener">
              {link.label}
              <span class="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </footer>
  );
}
