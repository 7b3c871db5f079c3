import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Language } from './i18n/index.ts';
import { ApiError, hasRoles, type IdentityClient, type TenantConfig, type User } from './sdk.ts';

export interface Session {
  client: IdentityClient;
  tenant: TenantConfig;
  /** The signed-in user, or null. */
  user: User | null;
  /** After a sign-in, a profile change or a sign-out. */
  setUser(user: User | null): void;
  /** After the console saves the tenant's settings: the frame and the brand follow at once. */
  setTenant(tenant: TenantConfig): void;
  /** The language the pages are in. */
  language: Language;
  /** The reader's pick in the language menu: kept in this browser, the pages shown again in it. */
  setLanguage(language: Language): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider(props: { value: Session; children: ComponentChildren }) {
  return <SessionContext.Provider value={props.value}>{props.children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/**
 * The console is for ADMIN or SUPER_ADMIN holders. Each is checked with
 * the SDK's `hasRoles` (AND over a list, unexpired grants only); the service
 * judges every call again.
 */
export const CONSOLE_ROLES: readonly (readonly string[])[] = [['ADMIN'], ['SUPER_ADMIN']];

export function mayUseConsole(user: User | null): boolean {
  return CONSOLE_ROLES.some((required) => hasRoles(user, required));
}

/** The user a stored refresh token still stands for, or null (no cookie, or a session that has ended). */
export async function restoreSession(client: IdentityClient): Promise<User | null> {
  try {
    return (await client.refresh()).user;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

/** A path inside this site to go back to after signing in; anything else (another site) becomes the account page. */
export function safeNext(next: string | null | undefined, fallback = '/account'): string {
  return next && /^\/(?!\/)[\w\-./?=&%]*$/.test(next) && !next.startsWith('/sign-in') ? next : fallback;
}

/** `path` with the given parameters that have a value (`?email=…&next=…`): links that carry a sign-in's way on. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}
