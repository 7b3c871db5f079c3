import { when } from '../messages.ts';
import type { User, UserRole, UserStatus } from '../sdk.ts';
import './users.css';

/** Grants that have not expired (a grant past its `expiresAt` has no effect). */
export function inForce(roles: readonly UserRole[], now: Date = new Date()): UserRole[] {
  return roles.filter((grant) => !isExpired(grant, now));
}

export function isExpired(grant: Pick<UserRole, 'expiresAt'>, now: Date = new Date()): boolean {
  return grant.expiresAt !== null && Date.parse(grant.expiresAt) <= now.getTime();
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
