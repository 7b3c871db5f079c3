import { useState } from 'preact/hooks';
import { useSession } from '../session.tsx';
import { AppLayout, CompactNav, RequireSignedIn } from '../shell.tsx';
import { ActivitySection } from './activity.tsx';
import { EmailSection } from './email.tsx';
import { PasswordSection } from './password.tsx';
import { ProfileSection } from './profile.tsx';
import { SessionsSection } from './sessions.tsx';
import { TotpSection } from './totp.tsx';
import './account.css';

/** The sections, as in-page links. */
function SectionLinks() {
  const { tenant, user } = useSession();
  const sections = [
    ['profile', 'Profile'],
    ['password', 'Password'],
    ['email', 'E-mail address'],
    ...(tenant.totpAllowed || user?.totpEnabled ? [['two-step', 'Two-step verification']] : []),
    ['sessions', 'Where you are signed in'],
    ['activity', 'Recent activity'],
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
 * address, two-step verification, sessions and recent activity, each a panel,
 * all through the SDK. A change anywhere reads the activity again.
 */
export function Account() {
  const { user } = useSession();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((n) => n + 1);
  return (
    <RequireSignedIn>
      <AppLayout
        title="Your account"
        // Beside the page on a wide screen; on a phone, one line below the heading.
        nav={
          <nav class="side-nav" aria-label="Account sections">
            <SectionLinks />
          </nav>
        }
        compactNav={
          <CompactNav label="Account sections" summary="On this page">
            <SectionLinks />
          </CompactNav>
        }
      >
        <p class="signed-in-as">Signed in as {user?.email}</p>
        <ProfileSection onChanged={changed} />
        <PasswordSection onChanged={changed} />
        <EmailSection onChanged={changed} />
        <TotpSection onChanged={changed} />
        <SessionsSection onChanged={changed} />
        <ActivitySection version={version} />
      </AppLayout>
    </RequireSignedIn>
  );
}
