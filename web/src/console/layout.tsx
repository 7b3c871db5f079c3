import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { t } from '../i18n/index.ts';
import { AppLayout, CompactNav } from '../shell.tsx';
import './console.css';

/** The console's sections, in the side navigation's order (named at render, in the language in use). */
const SECTIONS = [
  { path: '/console/users', label: 'console.section.users' },
  { path: '/console/invitations', label: 'console.section.invitations' },
  { path: '/console/roles', label: 'console.section.roles' },
  { path: '/console/settings', label: 'console.section.settings' },
  { path: '/console/api-keys', label: 'console.section.apiKeys' },
  { path: '/console/oidc-clients', label: 'console.section.clients' },
  { path: '/console/sign-in-providers', label: 'console.section.providers' },
  { path: '/console/webhooks', label: 'console.section.webhooks' },
] as const;

const isCurrent = (path: string, section: string) => path === section || path.startsWith(`${section}/`);

function SectionLinks() {
  const { path } = useLocation();
  return (
    <ul>
      {SECTIONS.map((section) => (
        <li key={section.path}>
          <a href={section.path} aria-current={isCurrent(path, section.path) ? 'page' : undefined}>
            {t(section.label)}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Beside the page on a wide screen. */
function SideNav() {
  return (
    <nav class="side-nav" aria-label={t('console.nav')}>
      <SectionLinks />
    </nav>
  );
}

/** On a phone: one line below the heading that names the section and opens the others. */
function SectionMenu() {
  const { path } = useLocation();
  const current = SECTIONS.find((section) => isCurrent(path, section.path));
  return (
    <CompactNav
      label={t('console.nav')}
      summary={
        <>
          {t('console.sections')}
          {current && <span class="muted">: {t(current.label)}</span>}
        </>
      }
    >
      <SectionLinks />
    </CompactNav>
  );
}

/** A console page: the signed-in frame with the console's navigation beside it (below its heading on a phone). */
export function ConsolePage(props: { title: string; children: ComponentChildren }) {
  return (
    <AppLayout title={props.title} nav={<SideNav />} compactNav={<SectionMenu />}>
      {props.children}
    </AppLayout>
  );
}
