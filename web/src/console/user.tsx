import { useId, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { fieldProblems, when } from '../messages.ts';
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
import { UserActivity, UserDevices } from './users-activity.tsx';
import { displayName, isExpired, StatusBadge, When } from './users-shared.tsx';

/** What the service's refusals mean on this page. */
const ADMIN_SENTENCES = {
  FORBIDDEN:
    'You do not have the authority to do that: administrators act only on users and roles below their own, and never on themselves.',
  NOT_FOUND: 'This user no longer exists. They may have been deleted.',
};

/**
 * `/console/users/:id`: one user's facts, status, roles, authenticator app, devices and activity, and their
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
      <ConsolePage title="User">
        <p>
          <a href="/console/users">Back to the users</a>
        </p>
        {error ? (
          <div class="panel">
            <Problem error={error} overrides={ADMIN_SENTENCES} />
            {/* A user who is gone stays gone; anything else (the network, the service) may pass. */}
            {!gone && (
              <Button type="button" kind="secondary" busy={loading} onClick={reload}>
                Try again
              </Button>
            )}
          </div>
        ) : (
          <section class="panel" aria-labelledby="profile-heading" aria-busy="true">
            <h2 id="profile-heading">Profile</h2>
            <Loading>Loading the user…</Loading>
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
    setUser((current) => ({ mailSuppression: current?.mailSuppression ?? null, ...next }));
    setVersion((n) => n + 1);
  };
  return (
    <ConsolePage title={displayName(user)}>
      <p>
        <a href="/console/users">Back to the users</a>
      </p>
      {!mayAct && (
        <p class="warning" role="note">
          {caller?.id === user.id
            ? 'This is your own account: change it on your account page. Administrators cannot change their own status or roles here.'
            : 'This user’s role is as high as yours or higher, so you can look but not change anything.'}
        </p>
      )}
      <Profile user={user} />
      {mayAct && user.status === 'INVITED' && <InvitationSection user={user} onChange={changed} />}
      {mayAct && MAY_RESET.has(user.status) && <PasswordResetSection user={user} />}
      <MailSection user={user} mayAct={mayAct} onChange={changed} />
      <StatusSection user={user} mayAct={mayAct} onChange={changed} />
      <RolesSection user={user} mayAct={mayAct} onChange={changed} />
      <TotpSection user={user} mayAct={mayAct} onChange={changed} />
      <UserDevices userId={user.id} />
      <UserActivity key={version} userId={user.id} />
      {mayAct && <DeleteSection user={user} />}
    </ConsolePage>
  );
}

const EMAIL_STATUS_WORDS: Record<User['emailStatus'], string> = {
  VALIDATED: 'confirmed',
  VALIDATION_SENT: 'confirmation pending',
  UNVALIDATED: 'not confirmed',
};

function Profile(props: { user: User }) {
  const { user } = props;
  return (
    <section class="panel" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <dl class="facts">
        <dt>E-mail address</dt>
        <dd>
          {user.email} <span class="muted">({EMAIL_STATUS_WORDS[user.emailStatus]})</span>
        </dd>
        <dt>First name</dt>
        <dd>{user.firstName ?? <span class="muted">None given</span>}</dd>
        <dt>Last name</dt>
        <dd>{user.lastName ?? <span class="muted">None given</span>}</dd>
        <dt>Phone</dt>
        <dd>
          <Phone phone={user.phone} />
        </dd>
        <dt>Registered</dt>
        <dd>
          <When at={user.registeredAt} />
        </dd>
        <dt>Last sign-in</dt>
        <dd>
          <When at={user.lastLoginAt} />
        </dd>
        <dt>User id</dt>
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
  if (props.phone === null) return <span class="muted">None given</span>;
  if (!validateForm(formSchemas.phone, props.phone).success) {
    return (
      <>
        {props.phone} <span class="muted small">(not a phone number: stored before numbers were checked)</span>
      </>
    );
  }
  return <a href={`tel:${props.phone.replace(/[^+0-9]/g, '')}`}>{props.phone}</a>;
}

/**
 * What the service's refusals mean for the mail an admin sends a user (an invitation again, a password reset): a
 * sentence of its own, rather than "the service is busy", whatever the wait the service names (a minute, as a rule).
 */
const MAIL_SENTENCES = {
  UNAVAILABLE: () =>
    'The e-mail could not be sent, so nothing changed. One address gets such an e-mail at most once a minute (five an hour), and none while its mail is suppressed. Try again in a minute.',
};

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
        Invitation
      </h2>
      {done && <Notice>{done}</Notice>}
      <p>
        {user.emailStatus === 'VALIDATION_SENT'
          ? 'The invitation is waiting for an answer.'
          : 'The link of the invitation has expired: send a new one.'}{' '}
        <span class="muted">
          First invited <When at={user.registeredAt} />.
        </span>
      </p>
      <Confirm
        label="Resend invitation"
        question={`Send ${user.email} a new invitation? It has a new link, good for 7 days; the link of the earlier one stops working.`}
        confirmLabel="Send"
        overrides={{
          ...ADMIN_SENTENCES,
          ...MAIL_SENTENCES,
          CONFLICT: 'This user is no longer invited: they have accepted, or the invitation was withdrawn.',
        }}
        onConfirm={async () => {
          const { expiresAt } = await client.admin.users.resendInvitation(user.id);
          props.onChange(await client.admin.users.get(user.id));
          setDone(`A new invitation was sent to ${user.email}. Its link works until ${when(expiresAt)}.`);
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
        Password
      </h2>
      {done && <Notice>{done}</Notice>}
      <p>
        {user.status === 'COMPROMISED'
          ? 'Their password was voided: they sign in again once they choose a new one.'
          : 'Forgotten passwords are reset by the user. You can send them the e-mail that starts it.'}
      </p>
      <Confirm
        label="Send password reset"
        question={`Send ${user.email} an e-mail to choose a new password? It holds a code that works for 10 minutes; their password stays as it is until they choose a new one.`}
        confirmLabel="Send"
        overrides={{
          ...ADMIN_SENTENCES,
          ...MAIL_SENTENCES,
          CONFLICT: 'This user cannot reset a password now: only active users can.',
        }}
        onConfirm={async () => {
          await client.admin.users.sendPasswordReset(user.id);
          setDone(`A password reset e-mail was sent to ${user.email}.`);
          heading.focus();
        }}
      />
    </section>
  );
}

/** Why mail stopped, as the console says it: "hard bounce on <date>". */
const SUPPRESSION_WORDS: Record<MailSuppression['reason'], string> = {
  BOUNCE: 'hard bounce',
  COMPLAINT: 'marked as spam',
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
        E-mail delivery
      </h2>
      {!suppression && <Notice>Mail to this address is no longer suppressed: the next mail goes out.</Notice>}
      {suppression && (
        <>
          <p class="warning" role="note">
            Mail to this address is suppressed ({SUPPRESSION_WORDS[suppression.reason]} on <When at={suppression.at} />
            ). The service sends it nothing: no sign-in codes, no password resets, no notices.
          </p>
          {props.mayAct && (
            <Confirm
              label="Clear"
              fullLabel="Clear the mail suppression"
              question={`Let mail reach ${user.email} again? Clear it once the address works again: another hard bounce or spam report suppresses it again.`}
              confirmLabel="Clear"
              overrides={ADMIN_SENTENCES}
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

/** Focus moves to a section's heading after its content changed under the button that was used. */
function useSectionHeading() {
  const ref = useRef<HTMLHeadingElement>(null);
  return { ref, focus: () => setTimeout(() => ref.current?.focus(), 0) };
}

const STATUS_CHANGES: Record<
  SettableUserStatus,
  { label: string; confirmLabel: string; question: (name: string) => string; done: string }
> = {
  ACTIVE: {
    label: 'Activate',
    confirmLabel: 'Activate',
    question: (name) => `Activate ${name}? They can sign in again (a compromised password stays void until reset).`,
    done: 'The user is active.',
  },
  DISABLED: {
    label: 'Disable',
    confirmLabel: 'Disable',
    question: (name) => `Disable ${name}? They are signed out everywhere at once and cannot sign in until activated.`,
    done: 'The user is disabled and signed out everywhere.',
  },
  COMPROMISED: {
    label: 'Mark as compromised',
    confirmLabel: 'Mark as compromised',
    question: (name) =>
      `Mark ${name} as compromised? They are signed out everywhere and their password stops working: they must reset it to sign in again.`,
    done: 'The user is marked as compromised and signed out everywhere.',
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
        Status
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
                  label={change.label}
                  question={change.question(displayName(user))}
                  confirmLabel={change.confirmLabel}
                  danger={status !== 'ACTIVE'}
                  overrides={ADMIN_SENTENCES}
                  onConfirm={async () => {
                    props.onChange(await reauth.run(() => client.admin.users.setStatus(user.id, status)));
                    setDone(change.done);
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
    setDone(`${chosen.name} was assigned${expiresAt ? `, until ${when(expiresAt)}` : ''}.`);
    setRoleId('');
    setExpires('');
  });
  const problems = fieldProblems(assign.error);
  const sorted = [...user.roles].sort((a, b) => a.priority - b.priority);

  return (
    <section class="panel" aria-labelledby="roles-heading">
      <h2 id="roles-heading" tabIndex={-1} ref={heading.ref}>
        Roles
      </h2>
      {done && <Notice>{done}</Notice>}
      <ScrollingTable label="Roles held">
        <table>
          <TableHead columns={['Role', 'Expires']} actions={props.mayAct} />
          <tbody>
            {sorted.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  No roles.
                </td>
              </tr>
            )}
            {sorted.map((grant) => (
              <tr key={grant.roleId}>
                <td>
                  {grant.name} <span class="muted small">(priority {grant.priority})</span>
                </td>
                <td>
                  {grant.expiresAt === null ? (
                    <span class="muted">Never</span>
                  ) : isExpired(grant) ? (
                    <>
                      Expired <When at={grant.expiresAt} />
                    </>
                  ) : (
                    <When at={grant.expiresAt} />
                  )}
                </td>
                {props.mayAct && (
                  <td>
                    {mayGrant(caller, grant) && (
                      <Confirm
                        label="Revoke"
                        fullLabel={`Revoke ${grant.name}`}
                        question={`Revoke the role ${grant.name} from ${displayName(user)}?`}
                        confirmLabel="Revoke"
                        danger
                        overrides={ADMIN_SENTENCES}
                        onConfirm={async () => {
                          await reauth.run(() => client.admin.roles.revoke({ userId: user.id, roleId: grant.roleId }));
                          await reload();
                          setDone(`${grant.name} was revoked.`);
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
          <h3>Assign a role</h3>
          <Problem error={rolesError} />
          <form onSubmit={onSubmit(assign.run)} noValidate>
            <div class="row top">
              <div class="field">
                <label for={roleSelect}>Role</label>
                <select
                  id={roleSelect}
                  required
                  value={roleId}
                  onChange={(e) => {
                    setRoleId(e.currentTarget.value);
                    setDone(null);
                  }}
                >
                  <option value="">Choose a role</option>
                  {grantable.map((role) => (
                    <option key={role.id} value={role.id}>
                      {role.name}
                    </option>
                  ))}
                </select>
              </div>
              <Field
                label="Expires (optional)"
                name="expiresAt"
                type="datetime-local"
                value={expiryAllowed ? expires : ''}
                disabled={!expiryAllowed}
                onInput={(e) => setExpires(e.currentTarget.value)}
                hint={
                  expiryAllowed
                    ? 'Your local time. Leave empty for a role that does not expire.'
                    : 'SUPER_ADMIN never expires.'
                }
                problem={problems.expiresAt}
              />
            </div>
            <Problem error={assign.error} overrides={ADMIN_SENTENCES} />
            <Button busy={assign.busy} disabled={!chosen}>
              Assign role
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
        Authenticator app
      </h2>
      {done && <Notice>The authenticator app was removed. The user can set up a new one from their account.</Notice>}
      <p>{user.totpEnabled ? 'Set up: signing in asks for its code.' : 'Not set up.'}</p>
      {props.mayAct && user.totpEnabled && (
        <Confirm
          label="Reset authenticator app"
          question={`Remove ${displayName(user)}’s authenticator app and backup codes? They sign in without it until they set up a new one.`}
          confirmLabel="Reset"
          danger
          overrides={ADMIN_SENTENCES}
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
      <h2 id="delete-heading">Delete</h2>
      <p>Deleting removes the account, its sessions and its role grants. It cannot be undone.</p>
      <Confirm
        label="Delete user"
        question={`Delete ${user.email}? This cannot be undone.`}
        confirmLabel="Delete"
        danger
        overrides={ADMIN_SENTENCES}
        onConfirm={async () => {
          await reauth.run(() => client.admin.users.delete(user.id));
          route(`/console/users?deleted=${encodeURIComponent(user.email)}`);
        }}
      />
      {reauth.prompt}
    </section>
  );
}
