import { t } from './i18n/index.ts';

/**
 * The browser and system of a User-Agent, roughly, as the pages show them ("Chrome", "Windows"): a few patterns
 * here rather than a parser in the bundle. The service parses fully (shared/sessions/device.ts, with versions) where
 * it answers devices and sessions; an activity record keeps the raw User-Agent, so the pages name it themselves.
 * Each name is null when the string says nothing familiar (curl, a script).
 */
export function browserAndSystem(userAgent: string): { browser: string | null; system: string | null } {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return { browser, system };
}

/** "Chrome on Windows" from a User-Agent; the string itself, shortened, when it says nothing familiar. */
export function agentOf(userAgent: string): string {
  const { browser, system } = browserAndSystem(userAgent);
  if (browser && system) return t('agent.browserOn', { browser, system });
  if (browser || system) return (browser ?? system) as string;
  const trimmed = userAgent.trim();
  return trimmed ? (trimmed.length > 60 ? `${trimmed.slice(0, 57)}…` : trimmed) : t('agent.unknownDevice');
}
