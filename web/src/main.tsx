import { render } from 'preact';
import { App } from './app.tsx';
import { problemSentence } from './messages.ts';
import { IdentityClient } from './sdk.ts';
import { restoreSession, type Session, SessionProvider } from './session.tsx';
import { applyBrand, brandOf, subdomainOfHost } from './tenant.ts';
import './styles.css';

/**
 * Boot: the tenant from the host name (discovery by slug, same-origin), its
 * brand on the page, and the session its `svc_rt` cookie still holds. The SDK
 * is the only way the pages speak to the API: memory access token, the cookie,
 * single-flight refresh and the expiry signal are its rules.
 */
async function boot(root: HTMLElement) {
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
  const user = await restoreSession(client).catch(() => null);
  renderApp(root, { client, tenant, user });
}

function renderApp(root: HTMLElement, state: Omit<Session, 'setUser' | 'setTenant'>) {
  const session: Session = {
    ...state,
    setUser: (user) => renderApp(root, { ...state, user }),
    setTenant: (tenant) => {
      applyBrand(document.documentElement, brandOf(tenant));
      renderApp(root, { ...state, tenant });
    },
  };
  render(
    <SessionProvider value={session}>
      <App />
    </SessionProvider>,
    root,
  );
}

function fatal(root: HTMLElement, sentence: string) {
  render(
    <main class="auth">
      <div class="card">
        <h1>This page cannot be shown</h1>
        <p role="alert">{sentence}</p>
      </div>
    </main>,
    root,
  );
}

boot(document.getElementById('app') as HTMLElement);
