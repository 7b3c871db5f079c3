import { useEffect } from 'preact/hooks';
import { Route, Router, useLocation } from 'preact-iso';
import { RequireConsole } from '../shell.tsx';
import { ApiKeys } from './api-keys.tsx';
import { Invitations } from './invitations.tsx';
import { OidcClients } from './oidc-clients.tsx';
import { Roles } from './roles.tsx';
import { Settings } from './settings.tsx';
import { NewSignInProvider, SignInProviderPage, SignInProviders } from './sign-in-providers.tsx';
import { UserPage } from './user.tsx';
import { Users } from './users.tsx';
import { NewWebhookEndpoint, WebhookEndpointPage, WebhookEndpoints } from './webhooks.tsx';

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
        <Route path="/sign-in-providers" component={SignInProviders} />
        <Route path="/sign-in-providers/new" component={NewSignInProvider} />
        <Route path="/sign-in-providers/:id" component={SignInProviderPage} />
        <Route path="/webhooks" component={WebhookEndpoints} />
        <Route path="/webhooks/new" component={NewWebhookEndpoint} />
        <Route path="/webhooks/:id" component={WebhookEndpointPage} />
        <Route default component={RedirectToUsers} />
      </Router>
    </RequireConsole>
  );
}
