import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { Route, Router, useLocation } from 'preact-iso';
import { AppLayout, RequireConsole } from '../shell.tsx';
import { ApiKeys } from './api-keys.tsx';
import { Invitations } from './invitations.tsx';
import { OidcClients } from './oidc-clients.tsx';
import { Roles } from './roles.tsx';
import { Settings } from './settings.tsx';
import { UserPage } from './user.tsx';
import { Users } from './users.tsx';

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

function RedirectToUsers() {
  const { route } = useLocation();
  useEffect(() => route('/console/users', true), [route]);
  return null;
}

/**
 * The admin console, for ADMIN and SUPER_ADMIN holders (RequireConsole). Each
 * section file owns its page; controls the caller's authority forbids are not
 * offered, and the service judges every call again.
 */
export function Console() {
  return (
    <RequireConsole>
      {/* Nested under /console/*: these paths are what follows /console. */}
      <Router>
        <Route path="/users" component={Users} />
        <Route path="/users/:id" component={UserPage} />
        <Route path="/invitations" component={Invitations} />
        <Route path="/roles" component={Roles} />
        <Route path="/settings" component={Settings} />
        <Route path="/api-keys" component={ApiKeys} />
        <Route path="/oidc-clients" component={OidcClients} />
        <Route default component={RedirectToUsers} />
      </Router>
    </RequireConsole>
  );
}
