import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { AppLayout } from '../shell.tsx';
import './console.css';

/** The console's sections, in the side navigation's order. */
const SECTIONS = [
  { path: '/console/users', label: 'Users' },
  { path: '/console/invitations', label: 'Invitations' },
  { path: '/console/roles', label: 'Roles' },
  { path: '/console/settings', label: 'Settings' },
  { path: '/console/api-keys', label: 'API keys' },
  { path: '/console/oidc-clients', label: 'Sign-in clients' },
] as const;

function SideNav() {
  const { path } = useLocation();
  return (
    <nav class="side-nav" aria-label="Console">
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.path}>
            <a
              href={section.path}
              aria-current={path === section.path || path.startsWith(`${section.path}/`) ? 'page' : undefined}
            >
              {section.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A console page: the signed-in frame with the console's navigation beside it. */
export function ConsolePage(props: { title: string; children: ComponentChildren }) {
  return (
    <AppLayout title={props.title} nav={<SideNav />}>
      {props.children}
    </AppLayout>
  );
}
