import { when } from '../messages.ts';
import { hasRoles, type User, type UserRole, type UserStatus } from '../sdk.ts';
import './users.css';

/**
 * A caller's authority: the lowest priority number among its grants in force; none is
 * weaker than every role.
 */
export function authorityOf(user: Pick<User, 'roles'>, now: Date = new Date()): number {
  return Math.min(Number.POSITIVE_INFINITY, ...inForce(user.roles, now).map((grant) => grant.priority));
}

/** Grants that have not expired (a grant past its `expiresAt` has no effect). */
export function inForce(roles: readonly UserRole[], now: Date = new Date()): UserRole[] {
  return roles.filter((grant) => !isExpired(grant, now));
}

export function isExpired(grant: Pick<UserRole, 'expiresAt'>, now: Date = new Date()): boolean {
  return grant.expiresAt !== null && Date.parse(grant.expiresAt) <= now.getTime();
}

/**
 * Whether the caller may change this user's status or roles, reset their TOTP or delete them: never themselves;
 * SUPER_ADMIN anyone else; others only users of strictly lower authority. Shown controls only: the service
 * judges each call again.
 */
export function mayActOn(caller: User | null, target: User): boolean {
  if (!caller || caller.id === target.id) return false;
  return hasRoles(caller, ['SUPER_ADMIN']) || authorityOf(caller) < authorityOf(target);
}

/** Whether the caller may assign or revoke a role of this priority. */
export function mayGrant(caller: User | null, role: { priority: number }): boolean {
  if (!caller) return false;
  return hasRoles(caller, ['SUPER_ADMIN']) || authorityOf(caller) < role.priority;
}

/** "Ann Lee", or the e-mail address when the user has no name. */
export function displayName(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
}

const STATUS_WORDS: Record<UserStatus, string> = {
  ACTIVE: 'Active',
  INACTIVE: 'Not verified',
  INVITED: 'Invited',
  DISABLED: 'Disabled',
  COMPROMISED: 'Compromised',
  TIMED_OUT: 'Locked out',
};

export const USER_STATUSES = Object.keys(STATUS_WORDS) as UserStatus[];

export function statusWord(status: UserStatus): string {
  return STATUS_WORDS[status];
}

export function StatusBadge(props: { status: UserStatus }) {
  return <span class={`badge status status-${props.status.toLowerCase()}`}>{statusWord(props.status)}</span>;
}

/** An instant in the reader's own words and zone, with the exact ISO time for machines. */
export function When(props: { at: string | null; never?: string }) {
  if (!props.at) return <span class="muted">{props.never ?? 'Never'}</span>;
  return <time dateTime={props.at}>{when(props.at)}</time>;
}
