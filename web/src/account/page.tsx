import { useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { useSession } from '../session.tsx';
import { AppLayout, CompactNav, RequireSignedIn } from '../shell.tsx';
import { ActivitySection } from './activity.tsx';
import { EmailSection } from './email.tsx';
import { PasskeysSection } from './passkeys.tsx';
import { PasswordSection } from './password.tsx';
import { ProfileSection } from './profile.tsx';
import { ProvidersSection } from './providers.tsx';
import { SessionsSection } from './sessions.tsx';
import { TotpSection } from './totp.tsx';
import './account.css';

/** The sections, as in-page links. */
function SectionLinks() {
  const { tenant, user } = useSession();
  const sections = [
    ['profile', t('account.profile.title')],
    ['password', t('account.password.title')],
    ['email', t('account.email.title')],
    ...(tenant.passkeysAllowed ? [['passkeys', t('account.passkeys.title')]] : []),
    ...((tenant.signInProviders ?? []).length > 0 ? [['providers', t('account.providers.title')]] : []),
    ...(tenant.totpAllowed || user?.totpEnabled ? [['two-step', t('account.totp.title')]] : []),
    ['sessions', t('account.sessions.title')],
    ['activity', t('account.activity.title')],
  ];
  return (
    <ul>
      {sections.map(([id, label]) => (
        <li key={id}>
          <a href={`#${id}`}>{label}</a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The signed-in user's own account: profile, password, e-mail
 * address, passkeys, sign-in providers, two-step verification, sessions and recent activity, each a panel,
 * all through the SDK. A change anywhere reads the activity again.
 */
export function Account() {
  const { user } = useSession();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((n) => n + 1);
  return (
    <RequireSignedIn>
      <AppLayout
        title={t('account.title')}
        // Beside the page on a wide screen; on a phone, one line below the heading.
        nav={
          <nav class="side-nav" aria-label={t('account.sections')}>
            <SectionLinks />
          </nav>
        }
        compactNav={
          <CompactNav label={t('account.sections')} summary={t('account.onThisPage')}>
            <SectionLinks />
          </CompactNav>
        }
      >
        <p class="signed-in-as">{t('account.signedInAs', { email: user?.email ?? '' })}</p>
        <ProfileSection onChanged={changed} />
        <PasswordSection onChanged={changed} />
        <EmailSection onChanged={changed} />
        <PasskeysSection onChanged={changed} />
        <ProvidersSection onChanged={changed} />
        <TotpSection onChanged={changed} />
        <SessionsSection onChanged={changed} />
        <ActivitySection version={version} />
      </AppLayout>
    </RequireSignedIn>
  );
}
