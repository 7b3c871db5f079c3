import { render } from 'preact';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { App } from './app.tsx';
import { installLeaveGuard } from './leave-guard.ts';
import { problemSentence } from './messages.ts';
import { IdentityClient, type TenantConfig } from './sdk.ts';
import { restoreSession, type Session, SessionProvider } from './session.tsx';
import { applyBrand, applyFavicon, brandOf, subdomainOfHost } from './tenant.ts';
import './styles.css';

/**
 * Boot: the tenant from the host name (discovery by slug, same-origin), its
 * brand on the page, and the session its `svc_rt` cookie still holds. The SDK
 * is the only way the pages speak to the API: memory access token, the cookie,
 * single-flight refresh and the expiry signal are its rules.
 */
async function boot(root: HTMLElement) {
  // Before the router mounts: a page with unsaved work is asked about leaving before the router moves.
  installLeaveGuard();
  const slug = subdomainOfHost(location.hostname);
  const client = new IdentityClient({ baseUrl: `${location.origin}/api/v1` });
  if (!slug) return fatal(root, 'There is no service at this address.');
  let tenant: Session['tenant'];
  try {
    tenant = await client.discover({ slug });
  } catch (error) {
    return fatal(root, problemSentence(error));
  }
  applyBrand(document.documentElement, brandOf(tenant));
  applyFavicon(document, brandOf(tenant));
  const user = await restoreSession(client).catch(() => null);
  render(<Root client={client} tenant={tenant} user={user} />, root);
}

/**
 * The one mounted tree: the user and the tenant are its state, so a sign-in, a saved profile or saved settings
 * re-render what shows them and nothing is mounted again (a second `render()` into the page would number `useId`'s
 * ids afresh for what mounts after it, and two fields could share one).
 */
function Root(props: Omit<Session, 'setUser' | 'setTenant'>) {
  const [user, setUser] = useState(props.user);
  const [tenant, setTenantState] = useState(props.tenant);
  const setTenant = useCallback((next: TenantConfig) => {
    applyBrand(document.documentElement, brandOf(next));
    applyFavicon(document, brandOf(next));
    setTenantState(next);
  }, []);
  const session = useMemo<Session>(
    () => ({ client: props.client, tenant, user, setUser, setTenant }),
    [props.client, tenant, user, setTenant],
  );
  return (
    <SessionProvider value={session}>
      <App />
    </SessionProvider>
  );
}

/**
 * The page could not start (no tenant at this address, or the service could not be reached): the sentence, and
 * "Try again", which loads the page afresh (a network or service failure often passes).
 */
function fatal(root: HTMLElement, sentence: string) {
  render(
    <main class="auth">
      <div class="card">
        <h1>This page cannot be shown</h1>
        <p role="alert">{sentence}</p>
        <button type="button" class="button primary" onClick={() => location.reload()}>
          Try again
        </button>
      </div>
    </main>,
    root,
  );
}

boot(document.getElementById('app') as HTMLElement);
