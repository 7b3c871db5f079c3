import { useId, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { type TextKey, t, tx } from '../i18n/index.ts';
import { fieldSentences, when } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import {
  type AdminUser,
  ApiError,
  formSchemas,
  type MailSuppression,
  mayActOn,
  mayGrant,
  type SettableUserStatus,
  type User,
  validateForm,
} from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { Loading } from './table-states.tsx';
import { UserIdentities } from './user-identities.tsx';
import { UserPasskeys } from './user-passkeys.tsx';
import { UserActivity, UserDevices } from './users-activity.tsx';
import { adminSentences, displayName, isExpired, StatusBadge, useSectionHeading, When } from './users-shared.tsx';

/**
 * `/console/users/:id`: one user's facts, status, roles, authenticator app, passkeys, linked sign-in providers, devices and activity, and their
 * deletion. Controls the caller's authority forbids are not offered (users-shared.tsx, `mayActOn`); the service
 * judges every call again and its refusal is said as a sentence.
 */
export function UserPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { client, user: caller } = useSession();
  const {
    data: user,
    error,
    setData: setUser,
    reload,
    loading,
  } = useResource(() => client.admin.users.get(id), [client, id]);
  const [version, setVersion] = useState(0);

  if (error || !user) {
    const gone = error instanceof ApiError && error.code === 'NOT_FOUND';
    return (
      <ConsolePage title={t('user.title')}>
        <p>
          <a href="/console/users">{t('user.back')}</a>
        </p>
        {error ? (
          <div class="panel">
            <Problem error={error} overrides={adminSentences()} />
            {/* A user who is gone stays gone; anything else (the network, the service) may pass. */}
            {!gone && (
              <Button type="button" kind="secondary" busy={loading} onClick={reload}>
                {t('boot.tryAgain')}
              </Button>
            )}
          </div>
        ) : (
          <section class="panel" aria-labelledby="profile-heading" aria-busy="true">
            <h2 id="profile-heading">{t('user.profile')}</h2>
            <Loading>{t('user.loading')}</Loading>
            <div aria-hidden="true">
              {[0, 1, 2, 1, 0].map((width, line) => (
                <span key={line} class={`skeleton skeleton-${width}`} />
              ))}
            </div>
          </section>
        )}
      </ConsolePage>
    );
  }

  const mayAct = mayActOn(caller, user);
  // A change made here shows in the activity: it is read again after each. An answer that is a plain User (a
  // status change) keeps the mail suppression as it was read.
  const changed = (next: User | AdminUser) => {
    setUser((current) => ({
      mailSuppression: current?.mailSuppression ?? null,
      passkeyCount: current?.passkeyCount ?? 0,
      ...next,
    }));
    setVersion((n) => n + 1);
  };
  return (
    <ConsolePage title={displayName(user)}>
      <p>
        <a href="/console/users">{t('user.back')}</a>
      </p>
      {!mayAct && (
        <p class="warning" role="note">
          {caller?.id === user.id ? t('user.yourOwn') : t('user.higher')}
        </p>
      )}
      <Profile user={user} />
      {mayAct && user.status === 'INVITED' && <InvitationSection user={user} onChange={changed} />}
      {mayAct && MAY_RESET.has(user.status) && <PasswordResetSection user={user} />}
      <MailSection user={user} mayAct={mayAct} onChange={changed} />
      <StatusSection user={user} mayAct={mayAct} onChange={changed} />
      <RolesSection user={user} mayAct={mayAct} onChange={changed} />
      <TotpSection user={user} mayAct={mayAct} onChange={changed} />
      <UserPasskeys user={user} mayAct={mayAct} onChange={changed} />
      <UserIdentities userId={user.id} />
      <UserDevices userId={user.id} />
      <UserActivity key={version} userId={user.id} />
      {mayAct && <DeleteSection user={user} />}
    </ConsolePage>
  );
}

const EMAIL_STATUS_WORDS: Record<User['emailStatus'], TextKey> = {
  VALIDATED: 'user.emailStatus.VALIDATED',
  VALIDATION_SENT: 'user.emailStatus.VALIDATION_SENT',
  UNVALIDATED: 'user.emailStatus.UNVALIDATED',
};

function Profile(props: { user: AdminUser }) {
  const { user } = props;
  return (
    <section class="panel" aria-labelledby="profile-heading">
      <h2 id="profile-heading">{t('user.profile')}</h2>
      <dl class="facts">
        <dt>{t('user.email')}</dt>
        <dd>
          {user.email} <span class="muted">({t(EMAIL_STATUS_WORDS[user.emailStatus])})</span>
        </dd>
        <dt>{t('user.firstName')}</dt>
        <dd>{user.firstName ?? <span class="muted">{t('consoleCommon.noneGiven')}</span>}</dd>
        <dt>{t('user.lastName')}</dt>
        <dd>{user.lastName ?? <span class="muted">{t('consoleCommon.noneGiven')}</span>}</dd>
        <dt>{t('user.phone')}</dt>
        <dd>
          <Phone phone={user.phone} />
        </dd>
        <dt>{t('user.registered')}</dt>
        <dd>
          <When at={user.registeredAt} />
        </dd>
        <dt>{t('user.lastLogin')}</dt>
        <dd>
          <When at={user.lastLoginAt} />
        </dd>
        <dt>{t('user.passkeyCount')}</dt>
        <dd>{user.passkeyCount}</dd>
        <dt>{t('user.id')}</dt>
        <dd>
          <code>{user.id}</code>
        </dd>
      </dl>
    </section>
  );
}

/**
 * The phone as stored. A number by today's rule (the SDK's `formSchemas.phone`) is a link that dials it; one stored
 * before numbers were checked is shown as written, and said to be no number.
 */
function Phone(props: { phone: string | null }) {
  if (props.phone === null) return <span class="muted">{t('consoleCommon.noneGiven')}</span>;
  if (!validateForm(formSchemas.phone, props.phone).success) {
    return (
      <>
        {props.phone} <span class="muted small">{t('user.notAPhone')}</span>
      </>
    );
  }
  return <a href={`tel:${props.phone.replace(/[^+0-9]/g, '')}`}>{props.phone}</a>;
}

/**
 * What the service's refusals mean for the mail an admin sends a user (an invitation again, a password reset): a
 * sentence of its own, rather than "the service is busy", whatever the wait the service names (a minute, as a rule).
 */
const mailSentences = () => ({ UNAVAILABLE: () => t('user.mailNotSent') });

/**
 * An invited user's invitation: when it went out, whether its link still works, and "Resend invitation", which
 * mails a new link (the earlier one stops working). Offered to whoever may act on the user.
 */
function InvitationSection(props: { user: User; onChange(user: AdminUser): void }) {
  const { client } = useSession();
  const { user } = props;
  const [done, setDone] = useState<string | null>(null);
  const heading = useSectionHeading();
  return (
    <section class="panel" aria-labelledby="invitation-heading">
      <h2 id="invitation-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.invitation.title')}
      </h2>
      {done && <Notice>{done}</Notice>}
      <p>
        {user.emailStatus === 'VALIDATION_SENT' ? t('user.invitation.waiting') : t('user.invitation.expired')}{' '}
        <span class="muted">{tx('user.invitation.first', { when: <When at={user.registeredAt} /> })}</span>
      </p>
      <Confirm
        label={t('user.invitation.resend')}
        question={t('user.invitation.question', { email: user.email })}
        confirmLabel={t('user.send')}
        overrides={{
          ...adminSentences(),
          ...mailSentences(),
          CONFLICT: t('user.invitation.notInvited'),
        }}
        onConfirm={async () => {
          const { expiresAt } = await client.admin.users.resendInvitation(user.id);
          props.onChange(await client.admin.users.get(user.id));
          setDone(t('user.invitation.sent', { email: user.email, when: when(expiresAt) }));
          heading.focus();
        }}
      />
    </section>
  );
}

/** Users a password reset can be sent to: as the service allows (a compromised user resets to sign in again). */
const MAY_RESET = new Set<User['status']>(['ACTIVE', 'TIMED_OUT', 'COMPROMISED']);

/**
 * "Send password reset": the user gets an e-mail with a code and a link to choose a new password; nothing changes
 * until they do (the admin never sees the code). Offered to whoever may act on the user.
 */
function PasswordResetSection(props: { user: User }) {
  const { client } = useSession();
  const { user } = props;
  const [done, setDone] = useState<string | null>(null);
  const heading = useSectionHeading();
  return (
    <section class="panel" aria-labelledby="password-heading">
      <h2 id="password-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.password.title')}
      </h2>
      {done && <Notice>{done}</Notice>}
      <p>{user.status === 'COMPROMISED' ? t('user.password.voided') : t('user.password.byUser')}</p>
      <Confirm
        label={t('user.password.send')}
        question={t('user.password.question', { email: user.email })}
        confirmLabel={t('user.send')}
        overrides={{
          ...adminSentences(),
          ...mailSentences(),
          CONFLICT: t('user.password.notActive'),
        }}
        onConfirm={async () => {
          await client.admin.users.sendPasswordReset(user.id);
          setDone(t('user.password.sent', { email: user.email }));
          heading.focus();
        }}
      />
    </section>
  );
}

/** Why mail stopped, as the console says it: "hard bounce on <date>". */
const SUPPRESSION_WORDS: Record<MailSuppression['reason'], TextKey> = {
  BOUNCE: 'user.mail.BOUNCE',
  COMPLAINT: 'user.mail.COMPLAINT',
};

/**
 * Whether mail reaches the user's address: after a hard bounce or a complaint (SES's feedback) the service sends
 * it nothing (no sign-in codes, no password resets, no notices) until an admin clears it here. Shown only then.
 */
function MailSection(props: { user: AdminUser; mayAct: boolean; onChange(user: AdminUser): void }) {
  const { client } = useSession();
  const { user } = props;
  const [cleared, setCleared] = useState(false);
  const heading = useSectionHeading();
  const suppression = user.mailSuppression;
  if (!suppression && !cleared) return null;
  return (
    <section class="panel" aria-labelledby="mail-heading">
      <h2 id="mail-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.mail.title')}
      </h2>
      {!suppression && <Notice>{t('user.mail.cleared')}</Notice>}
      {suppression && (
        <>
          <p class="warning" role="note">
            {tx('user.mail.suppressed', {
              reason: t(SUPPRESSION_WORDS[suppression.reason]),
              when: <When at={suppression.at} />,
            })}
          </p>
          {props.mayAct && (
            <Confirm
              label={t('user.mail.clear')}
              fullLabel={t('user.mail.clearFull')}
              question={t('user.mail.question', { email: user.email })}
              confirmLabel={t('user.mail.clear')}
              overrides={adminSentences()}
              onConfirm={async () => {
                await client.admin.users.clearMailSuppression(user.id);
                props.onChange(await client.admin.users.get(user.id));
                setCleared(true);
                heading.focus();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}

/** Each status an admin sets: its button (which also confirms), the question (of `{name}`) and the news. */
const STATUS_CHANGES: Record<SettableUserStatus, { label: TextKey; question: TextKey; done: TextKey }> = {
  ACTIVE: {
    label: 'user.status.activate',
    question: 'user.status.activateQuestion',
    done: 'user.status.activated',
  },
  DISABLED: {
    label: 'user.status.disable',
    question: 'user.status.disableQuestion',
    done: 'user.status.disabled',
  },
  COMPROMISED: {
    label: 'user.status.compromise',
    question: 'user.status.compromiseQuestion',
    done: 'user.status.compromised',
  },
};

function StatusSection(props: { user: User; mayAct: boolean; onChange(user: User): void }) {
  const { client } = useSession();
  const { user } = props;
  const [done, setDone] = useState<string | null>(null);
  const heading = useSectionHeading();
  // A status change, a role of priority 1 or less, a TOTP reset and a deletion need a sign-in younger than 10 minutes.
  const reauth = useReauthenticated();
  return (
    <section class="panel" aria-labelledby="status-heading">
      <h2 id="status-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.status.title')}
      </h2>
      <p>
        <StatusBadge status={user.status} />
      </p>
      {done && <Notice>{done}</Notice>}
      {props.mayAct && (
        <div class="actions">
          {(Object.keys(STATUS_CHANGES) as SettableUserStatus[])
            .filter((status) => status !== user.status)
            .map((status) => {
              const change = STATUS_CHANGES[status];
              return (
                <Confirm
                  key={status}
                  label={t(change.label)}
                  question={t(change.question, { name: displayName(user) })}
                  confirmLabel={t(change.label)}
                  danger={status !== 'ACTIVE'}
                  overrides={adminSentences()}
                  onConfirm={async () => {
                    props.onChange(await reauth.run(() => client.admin.users.setStatus(user.id, status)));
                    setDone(t(change.done));
                    heading.focus();
                  }}
                />
              );
            })}
        </div>
      )}
      {reauth.prompt}
    </section>
  );
}

/** A `datetime-local` value (the reader's own zone) as an ISO instant, or null when empty. */
function isoFromLocal(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

function RolesSection(props: { user: User; mayAct: boolean; onChange(user: User): void }) {
  const { client, user: caller } = useSession();
  const { user } = props;
  const [roleId, setRoleId] = useState('');
  const [expires, setExpires] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const heading = useSectionHeading();
  const roleSelect = useId();
  const reauth = useReauthenticated();

  // Only who may act is offered roles to assign: the others' page reads none.
  const { data: roles, error: rolesError } = useResource(
    async () => (props.mayAct ? client.admin.roles.list() : []),
    [client, props.mayAct],
  );

  const grantable = (roles ?? []).filter((role) => mayGrant(caller, role)).sort((a, b) => a.priority - b.priority);
  const chosen = grantable.find((role) => role.id === roleId) ?? null;
  // SUPER_ADMIN is granted only without an expiry (a lapsing one could remove the others first).
  const expiryAllowed = chosen?.name !== 'SUPER_ADMIN' || chosen.owner !== 'SYSTEM';

  const reload = async () => props.onChange(await client.admin.users.get(user.id));
  const assign = useAction(async () => {
    if (!chosen) return;
    const expiresAt = expiryAllowed ? isoFromLocal(expires) : null;
    await reauth.run(() =>
      client.admin.roles.assign({ userId: user.id, roleId: chosen.id, ...(expiresAt ? { expiresAt } : {}) }),
    );
    await reload();
    setDone(
      expiresAt
        ? t('user.roles.assignedUntil', { role: chosen.name, when: when(expiresAt) })
        : t('user.roles.assigned', { role: chosen.name }),
    );
    setRoleId('');
    setExpires('');
  });
  const problems = fieldSentences(assign.error, { expiresAt: t('user.roles.expiry') });
  const sorted = [...user.roles].sort((a, b) => a.priority - b.priority);

  return (
    <section class="panel" aria-labelledby="roles-heading">
      <h2 id="roles-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.roles.title')}
      </h2>
      {done && <Notice>{done}</Notice>}
      <ScrollingTable label={t('user.roles.held')}>
        <table>
          <TableHead columns={[t('user.roles.role'), t('user.roles.expires')]} actions={props.mayAct} />
          <tbody>
            {sorted.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  {t('user.roles.none')}
                </td>
              </tr>
            )}
            {sorted.map((grant) => (
              <tr key={grant.roleId}>
                <td>
                  {grant.name} <span class="muted small">{t('user.roles.priority', { priority: grant.priority })}</span>
                </td>
                <td>
                  {grant.expiresAt === null ? (
                    <span class="muted">{t('consoleCommon.never')}</span>
                  ) : isExpired(grant) ? (
                    tx('user.roles.expired', { when: <When at={grant.expiresAt} /> })
                  ) : (
                    <When at={grant.expiresAt} />
                  )}
                </td>
                {props.mayAct && (
                  <td>
                    {mayGrant(caller, grant) && (
                      <Confirm
                        label={t('user.roles.revoke')}
                        fullLabel={t('user.roles.revokeFull', { role: grant.name })}
                        question={t('user.roles.revokeQuestion', { role: grant.name, name: displayName(user) })}
                        confirmLabel={t('user.roles.revoke')}
                        danger
                        overrides={adminSentences()}
                        onConfirm={async () => {
                          await reauth.run(() => client.admin.roles.revoke({ userId: user.id, roleId: grant.roleId }));
                          await reload();
                          setDone(t('user.roles.revoked', { role: grant.name }));
                          heading.focus();
                        }}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
      {props.mayAct && (
        <>
          <h3>{t('user.roles.assign')}</h3>
          <Problem error={rolesError} />
          <form onSubmit={onSubmit(assign.run)} noValidate>
            <div class="row top">
              <div class="field">
                <label for={roleSelect}>{t('user.roles.role')}</label>
                <select
                  id={roleSelect}
                  required
                  value={roleId}
                  onChange={(e) => {
                    setRoleId(e.currentTarget.value);
                    setDone(null);
                  }}
                >
                  <option value="">{t('user.roles.choose')}</option>
                  {grantable.map((role) => (
                    <option key={role.id} value={role.id}>
                      {role.name}
                    </option>
                  ))}
                </select>
              </div>
              <Field
                label={t('user.roles.expiresOptional')}
                name="expiresAt"
                type="datetime-local"
                value={expiryAllowed ? expires : ''}
                disabled={!expiryAllowed}
                onInput={(e) => setExpires(e.currentTarget.value)}
                hint={expiryAllowed ? t('user.roles.expiresHint') : t('user.roles.superAdminForever')}
                problem={problems.expiresAt}
              />
            </div>
            <Problem error={assign.error} overrides={adminSentences()} />
            <Button busy={assign.busy} disabled={!chosen}>
              {t('user.roles.assignButton')}
            </Button>
          </form>
        </>
      )}
      {reauth.prompt}
    </section>
  );
}

function TotpSection(props: { user: User; mayAct: boolean; onChange(user: User): void }) {
  const { client } = useSession();
  const { user } = props;
  const [done, setDone] = useState(false);
  const heading = useSectionHeading();
  const reauth = useReauthenticated();
  return (
    <section class="panel" aria-labelledby="totp-heading">
      <h2 id="totp-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.totp.title')}
      </h2>
      {done && <Notice>{t('user.totp.removed')}</Notice>}
      <p>{user.totpEnabled ? t('user.totp.on') : t('user.totp.off')}</p>
      {props.mayAct && user.totpEnabled && (
        <Confirm
          label={t('user.totp.reset')}
          question={t('user.totp.question', { name: displayName(user) })}
          confirmLabel={t('user.totp.confirm')}
          danger
          overrides={adminSentences()}
          onConfirm={async () => {
            await reauth.run(() => client.admin.users.resetTotp(user.id));
            props.onChange(await client.admin.users.get(user.id));
            setDone(true);
            heading.focus();
          }}
        />
      )}
      {reauth.prompt}
    </section>
  );
}

function DeleteSection(props: { user: User }) {
  const { client } = useSession();
  const { route } = useLocation();
  const { user } = props;
  const reauth = useReauthenticated();
  return (
    <section class="panel" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t('user.delete.title')}</h2>
      <p>{t('user.delete.text')}</p>
      <Confirm
        label={t('user.delete.button')}
        question={t('user.delete.question', { email: user.email })}
        confirmLabel={t('user.delete.confirm')}
        danger
        overrides={adminSentences()}
        onConfirm={async () => {
          await reauth.run(() => client.admin.users.delete(user.id));
          route(`/console/users?deleted=${encodeURIComponent(user.email)}`);
        }}
      />
      {reauth.prompt}
    </section>
  );
}
