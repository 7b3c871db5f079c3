import { render } from 'preact';
import { useCallback, useMemo, useState } from 'preact/hooks';
import { App } from './app.tsx';
import {
  askedLanguage,
  currentLanguage,
  DEFAULT_LANGUAGE,
  hasText,
  isLanguage,
  type Language,
  switchLanguage,
  t,
} from './i18n/index.ts';
import { installLeaveGuard } from './leave-guard.ts';
import { problemSentence } from './messages.ts';
import { type FetchInit, IdentityClient, type TenantConfig } from './sdk.ts';
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
  const client = new IdentityClient({ baseUrl: `${location.origin}/api/v1`, fetch: inLanguage });
  // The reader's language loads while the tenant is asked for; only when the reader names none of ours does the
  // tenant's default decide, once it is known.
  const asked = readerLanguage();
  // Texts that could not be fetched leave the page to say so in English (fatal).
  const texts = switchLanguage(asked ?? DEFAULT_LANGUAGE).catch(() => undefined);
  if (!slug) {
    await texts;
    return fatal(root, t('problem.TENANT_NOT_FOUND'));
  }
  let tenant: Session['tenant'];
  try {
    tenant = await client.discover({ slug });
  } catch (error) {
    await texts;
    return fatal(root, problemSentence(error));
  }
  await texts;
  if (!asked) await switchLanguage(tenantLanguage(tenant)).catch(() => undefined);
  if (!hasText('boot.failed')) return fatal(root, '');
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
function Root(props: Pick<Session, 'client' | 'tenant' | 'user'>) {
  const [user, setUser] = useState(props.user);
  const [tenant, setTenantState] = useState(props.tenant);
  const [language, setLanguageState] = useState(currentLanguage());
  const setTenant = useCallback((next: TenantConfig) => {
    applyBrand(document.documentElement, brandOf(next));
    applyFavicon(document, brandOf(next));
    setTenantState(next);
  }, []);
  const setLanguage = useCallback(async (next: Language) => {
    await switchLanguage(next);
    keep(() => localStorage.setItem(CHOSEN_LANGUAGE, next));
    setLanguageState(next);
  }, []);
  const session = useMemo<Session>(
    () => ({ client: props.client, tenant, user, setUser, setTenant, language, setLanguage }),
    [props.client, tenant, user, setTenant, language, setLanguage],
  );
  // A new language mounts the pages afresh, so that nothing keeps a text of the one before.
  return (
    <SessionProvider value={session}>
      <App key={language} />
    </SessionProvider>
  );
}

/** Where the reader's pick in the language menu is kept (this browser, this tenant's origin). */
const CHOSEN_LANGUAGE = 'language';
/** An app's `ui_locales`, kept for the tab: it arrives on one page and holds on the pages the flow goes through. */
const UI_LOCALES = 'ui_locales';

/** Storage may be refused (a private window, a policy): the pages then go on without it. */
function keep<T>(action: () => T): T | null {
  try {
    return action();
  } catch {
    return null;
  }
}

/** The language the reader asks for: their pick in the menu, then the app's `ui_locales`, then the browser's. */
function readerLanguage(): Language | null {
  const fromUrl = new URLSearchParams(location.search).get(UI_LOCALES);
  if (fromUrl) keep(() => sessionStorage.setItem(UI_LOCALES, fromUrl.slice(0, 512)));
  return askedLanguage({
    chosen: keep(() => localStorage.getItem(CHOSEN_LANGUAGE)),
    uiLocales: keep(() => sessionStorage.getItem(UI_LOCALES)) ?? fromUrl,
    browser: navigator.languages,
  });
}

/** The tenant's default language (a merchant setting): the pages' when the reader names none of ours. */
function tenantLanguage(tenant: TenantConfig): Language {
  return isLanguage(tenant.defaultLanguage) ? tenant.defaultLanguage : DEFAULT_LANGUAGE;
}

/** Every call to the API says the pages' language, so that a mail it causes is written in it. */
function inLanguage(url: string, init: FetchInit) {
  return fetch(url, { ...init, headers: { ...init.headers, 'accept-language': currentLanguage() } });
}

/**
 * The page could not start (no tenant at this address, or the service could not be reached): the sentence, and
 * "Try again", which loads the page afresh (a network or service failure often passes).
 */
function fatal(root: HTMLElement, sentence: string) {
  // Without its texts (they could not be fetched either), the page says it in the pages' own language.
  const texts = hasText('boot.failed');
  render(
    <main class="auth">
      <div class="card">
        <h1>{texts ? t('boot.failed') : 'This page cannot be shown'}</h1>
        <p role="alert">{texts ? sentence : 'We could not reach the service. Check your connection and try again.'}</p>
        <button type="button" class="button primary" onClick={() => location.reload()}>
          {texts ? t('boot.tryAgain') : 'Try again'}
        </button>
      </div>
    </main>,
    root,
  );
}

boot(document.getElementById('app') as HTMLElement);
