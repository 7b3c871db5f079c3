import { useRef } from 'preact/hooks';
import { type TextKey, t } from '../i18n/index.ts';
import { when } from '../messages.ts';
import type { User, UserRole, UserStatus } from '../sdk.ts';
import './users.css';

/** What the service's refusals mean on a user's page. */
export const adminSentences = () => ({
  FORBIDDEN: t('user.forbidden'),
  NOT_FOUND: t('user.gone'),
});

/** Focus moves to a section's heading after its content changed under the button that was used. */
export function useSectionHeading() {
  const ref = useRef<HTMLHeadingElement>(null);
  return { ref, focus: () => setTimeout(() => ref.current?.focus(), 0) };
}

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

const STATUS_WORDS: Record<UserStatus, TextKey> = {
  ACTIVE: 'users.status.ACTIVE',
  INACTIVE: 'users.status.INACTIVE',
  INVITED: 'users.status.INVITED',
  DISABLED: 'users.status.DISABLED',
  COMPROMISED: 'users.status.COMPROMISED',
  TIMED_OUT: 'users.status.TIMED_OUT',
};

/** The same inside a sentence, "among the invited users" (German declines it: "unter den eingeladenen Benutzern"). */
const STATUS_AMONG: Record<UserStatus, TextKey> = {
  ACTIVE: 'users.statusAmong.ACTIVE',
  INACTIVE: 'users.statusAmong.INACTIVE',
  INVITED: 'users.statusAmong.INVITED',
  DISABLED: 'users.statusAmong.DISABLED',
  COMPROMISED: 'users.statusAmong.COMPROMISED',
  TIMED_OUT: 'users.statusAmong.TIMED_OUT',
};

export const USER_STATUSES = Object.keys(STATUS_WORDS) as UserStatus[];

export function statusWord(status: UserStatus): string {
  return t(STATUS_WORDS[status]);
}

export function statusAmong(status: UserStatus): string {
  return t(STATUS_AMONG[status]);
}

export function StatusBadge(props: { status: UserStatus }) {
  return <span class={`badge status status-${props.status.toLowerCase()}`}>{statusWord(props.status)}</span>;
}

/** An instant in the reader's own words and zone, with the exact ISO time for machines. */
export function When(props: { at: string | null; never?: string }) {
  if (!props.at) return <span class="muted">{props.never ?? t('consoleCommon.never')}</span>;
  return <time dateTime={props.at}>{when(props.at)}</time>;
}
