import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t } from './i18n/index.ts';
import { mayUseConsole, useSession } from './session.tsx';
import { BrandMark, useTitle } from './ui.tsx';

/**
 * The frame of the signed-in pages: the tenant's brand, the navigation, one main region with the page's heading.
 * `nav` is a section navigation beside the page; on a phone it gives way to `compactNav`, shown below the heading.
 */
export function AppLayout(props: {
  title: string;
  children: ComponentChildren;
  nav?: ComponentChildren;
  compactNav?: ComponentChildren;
}) {
  const { client, tenant, user, setUser } = useSession();
  const { path, route } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useTitle(props.title);
  // A link followed closes the phone's menu; so does Escape, which hands focus back to the menu's button.
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  // A new page moves focus to its heading, so that keyboard and screen reader users start there.
  useEffect(() => {
    heading.current?.focus();
  }, [props.title]);
  const signOut = async () => {
    await client.logout().catch(() => undefined);
    setUser(null);
    route('/sign-in');
  };
  useSessionCheck();
  const current = (prefix: string) => (path === prefix || path.startsWith(`${prefix}/`) ? 'page' : undefined);
  return (
    <div class="app">
      <a class="skip" href="#main">
        {t('shell.skip')}
      </a>
      <header class="topbar">
        <BrandMark name={tenant.name} logoUrl={tenant.logoUrl} />
        {/* On a phone the links fold into this menu (styles.css); wider screens never show the button. */}
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen(!menuOpen)}
          ref={menuButton}
        >
          {t('shell.menu')}
        </button>
        <nav aria-label={t('shell.mainNav')} id="main-menu" class={menuOpen ? 'open' : undefined}>
          <a href="/account" aria-current={current('/account')}>
            {t('shell.account')}
          </a>
          {mayUseConsole(user) && (
            <a href="/console" aria-current={current('/console')}>
              {t('shell.console')}
            </a>
          )}
          {/* It leaves the page: a form with unsaved changes asks first (console/leave-guard.tsx). */}
          <button type="button" class="link" onClick={signOut} data-leaves-page>
            {t('shell.signOut')}
          </button>
        </nav>
      </header>
      <div class="body">
        {props.nav}
        <main id="main">
          <h1 tabIndex={-1} ref={heading}>
            {props.title}
          </h1>
          {props.compactNav}
          {props.children}
        </main>
      </div>
    </div>
  );
}

/**
 * A section navigation as a phone shows it (AppLayout's `compactNav`): one line below the heading, `summary`, that
 * opens the links. The same links stand beside the page on a wider screen.
 */
export function CompactNav(props: { label: string; summary: ComponentChildren; children: ComponentChildren }) {
  const details = useRef<HTMLDetailsElement>(null);
  // A link followed (to another page, or to a section of this one) folds the menu again.
  const fold = (event: MouseEvent) => {
    if (details.current && (event.target as HTMLElement).closest('a')) details.current.open = false;
  };
  return (
    <details class="section-menu" ref={details}>
      <summary>{props.summary}</summary>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a link's Enter is a click too; the nav only listens for them */}
      <nav aria-label={props.label} onClick={fold}>
        {props.children}
      </nav>
    </details>
  );
}

/** How often an open signed-in page asks whether its session still stands. */
const SESSION_CHECK_MS = 60_000;

/**
 * A signed-in page that sits open learns that its session was ended elsewhere (revoked from another device,
 * the account disabled, the password changed): it asks the service when it comes back into view or focus, and
 * once a minute. A refused session makes the SDK's refresh fail, whose expiry signal sends the user to sign-in.
 */
function useSessionCheck() {
  const { client } = useSession();
  useEffect(() => {
    const check = () => {
      if (document.visibilityState === 'visible') client.me.get().catch(() => undefined);
    };
    const timer = setInterval(check, SESSION_CHECK_MS);
    document.addEventListener('visibilitychange', check);
    window.addEventListener('focus', check);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('focus', check);
    };
  }, [client]);
}

/** Signed-out visitors go to sign-in, and come back here after. */
export function RequireSignedIn(props: { children: ComponentChildren }) {
  const { user } = useSession();
  const { url, route } = useLocation();
  useEffect(() => {
    if (!user) route(`/sign-in?next=${encodeURIComponent(url)}`, true);
  }, [user, url, route]);
  return user ? props.children : null;
}

/**
 * The console's guard: ADMIN or SUPER_ADMIN (session.tsx). It decides what is
 * shown only; every call is judged by the service again.
 */
export function RequireConsole(props: { children: ComponentChildren }) {
  const { user } = useSession();
  return (
    <RequireSignedIn>
      {mayUseConsole(user) ? (
        props.children
      ) : (
        <AppLayout title={t('shell.noAccess')}>
          <p role="alert">{t('shell.noAccessText')}</p>
          <p>
            <a href="/account">{t('shell.toAccount')}</a>
          </p>
        </AppLayout>
      )}
    </RequireSignedIn>
  );
}
