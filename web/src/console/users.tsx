import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { pageUsers, type User, type UserStatus } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, useResource } from '../ui.tsx';
import { InviteForm } from './invite-form.tsx';
import { ConsolePage } from './layout.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';
import { displayName, inForce, StatusBadge, statusWord, USER_STATUSES, When } from './users-shared.tsx';

type StatusFilter = UserStatus | 'ALL';

/** The tenant's users, sorted by e-mail address, read once (GET /users answers the whole list): `null` while read. */
export function useAllUsers() {
  const { client } = useSession();
  const {
    data: users,
    error,
    reload,
  } = useResource(
    async () =>
      [...(await client.admin.users.list())].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)),
    [client],
  );
  return { users, error, reload };
}

/** The columns the list sorts by, as the address names them (`?sort=`). */
type SortKey = 'name' | 'email' | 'status' | 'lastLogin';
type Direction = 'ascending' | 'descending';
interface Sort {
  key: SortKey;
  direction: Direction;
}

const SORT_KEYS: readonly SortKey[] = ['name', 'email', 'status', 'lastLogin'];
/** The list as it opens: by e-mail address, A to Z. */
const DEFAULT_SORT: Sort = { key: 'email', direction: 'ascending' };
/** A column's first click: names and words A to Z, sign-ins the most recent first. */
const FIRST_DIRECTION: Record<SortKey, Direction> = {
  name: 'ascending',
  email: 'ascending',
  status: 'ascending',
  lastLogin: 'descending',
};
const SORT_WORDS: Record<SortKey, { column: string; ascending: string; descending: string }> = {
  name: { column: 'name', ascending: 'A to Z', descending: 'Z to A' },
  email: { column: 'e-mail address', ascending: 'A to Z', descending: 'Z to A' },
  status: { column: 'status', ascending: 'A to Z', descending: 'Z to A' },
  lastLogin: { column: 'last sign-in', ascending: 'oldest first', descending: 'most recent first' },
};

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const personalName = (user: User) => [user.firstName, user.lastName].filter(Boolean).join(' ');

/**
 * The order of two users by a column, the e-mail address breaking ties (it is unique). Users with no name, or who
 * never signed in, come last whichever the direction: an empty value is not a value to sort by.
 */
function compareBy(sort: Sort) {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const keyOf = (user: User): string | number | null => {
    switch (sort.key) {
      case 'name':
        return personalName(user) || null;
      case 'email':
        return user.email;
      case 'status':
        return statusWord(user.status);
      case 'lastLogin':
        return user.lastLoginAt ? Date.parse(user.lastLoginAt) : null;
    }
  };
  return (a: User, b: User): number => {
    const [x, y] = [keyOf(a), keyOf(b)];
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else {
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      if (order !== 0) return sign * order;
    }
    return collator.compare(a.email, b.email);
  };
}

function sortFromQuery(query: Record<string, string | undefined>): Sort {
  const key = SORT_KEYS.find((k) => k === query.sort);
  if (!key) return DEFAULT_SORT;
  return {
    key,
    direction: query.dir === 'desc' ? 'descending' : query.dir === 'asc' ? 'ascending' : FIRST_DIRECTION[key],
  };
}

/**
 * `/console/users`: every user of the tenant, searched, filtered by status, sorted by a column and paged here
 * 25 a page (the SDK's `pageUsers`). GET /users answers the whole tenant in one list, so sorting orders every user,
 * not the page shown; were the list ever paged by the service, only the order it reads in (the e-mail address)
 * could be offered across pages. The search, status, sort and page live in the address, so that coming back from a
 * user's page finds the list as it was. "Invite user" opens the invitation form in a dialog.
 */
export function Users() {
  const { query, path, route } = useLocation();
  const { user: caller } = useSession();
  const { users, error, reload } = useAllUsers();
  const [filter, setFilter] = useState(query.q ?? '');
  const [status, setStatus] = useState<StatusFilter>(
    USER_STATUSES.includes(query.status as UserStatus) ? (query.status as UserStatus) : 'ALL',
  );
  const [sort, setSort] = useState<Sort>(() => sortFromQuery(query));
  const [page, setPage] = useState(Number(query.page) || 1);
  // The notice of a deletion (from the user's page) stays while the address is tidied below.
  const [deleted] = useState(query.deleted);
  const [invited, setInvited] = useState<string | null>(null);
  const inviteDialog = useRef<HTMLDialogElement>(null);
  const inviteEmail = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const statusId = useId();

  useEffect(() => {
    const params = new URLSearchParams();
    if (filter) params.set('q', filter);
    if (status !== 'ALL') params.set('status', status);
    if (sort.key !== DEFAULT_SORT.key || sort.direction !== DEFAULT_SORT.direction) {
      params.set('sort', sort.key);
      params.set('dir', sort.direction === 'ascending' ? 'asc' : 'desc');
    }
    if (page > 1) params.set('page', String(page));
    const search = params.toString();
    route(`${path}${search ? `?${search}` : ''}`, true);
  }, [filter, status, sort, page, path, route]);

  const shown = useMemo(() => {
    const byStatus = (users ?? []).filter((user) => status === 'ALL' || user.status === status);
    return pageUsers(byStatus.sort(compareBy(sort)), { page, filter });
  }, [users, status, sort, page, filter]);

  const sortBy = (key: SortKey) => {
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { key, direction: FIRST_DIRECTION[key] },
    );
    // A new order starts at its beginning; the search and the status filter stay.
    setPage(1);
  };
  const clearSearch = () => {
    setFilter('');
    setStatus('ALL');
    setPage(1);
  };
  // Nobody but the admin reading: the tenant has no users yet.
  const aloneHere = users?.every((user) => user.id === caller?.id) ?? false;
  const openInvite = () => {
    inviteDialog.current?.showModal();
    inviteEmail.current?.focus();
  };

  return (
    <ConsolePage title="Users">
      {deleted && <Notice>{deleted} was deleted.</Notice>}
      {invited && <Notice>An invitation was sent to {invited}. They are listed as invited until they accept.</Notice>}
      <search class="users-tools">
        <div class="field">
          <label for={searchId}>Search by name or e-mail</label>
          <input
            id={searchId}
            type="search"
            value={filter}
            onInput={(e) => {
              setFilter(e.currentTarget.value);
              setPage(1);
            }}
          />
        </div>
        <div class="field narrow">
          <label for={statusId}>Status</label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as StatusFilter);
              setPage(1);
            }}
          >
            <option value="ALL">All statuses</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="button primary invite-user" aria-haspopup="dialog" onClick={openInvite}>
          Invite user
        </button>
      </search>
      <InviteDialog
        dialogRef={inviteDialog}
        emailRef={inviteEmail}
        onInvited={async (email) => {
          setInvited(email);
          await reload();
        }}
      />
      {error ? (
        <div class="panel">
          <Problem error={error} />
          <button type="button" class="button secondary" onClick={reload}>
            Try again
          </button>
        </div>
      ) : (
        <div class="panel">
          {aloneHere && (
            <EmptyState
              action={
                <button type="button" class="button primary" aria-haspopup="dialog" onClick={openInvite}>
                  Invite the first user
                </button>
              }
            >
              Nobody else has an account here yet. Invite the people who will use it: each gets an e-mail with a link to
              choose a password.
            </EmptyState>
          )}
          {users === null ? (
            <Loading>Loading the users…</Loading>
          ) : (
            <p role="status" class="muted">
              {shown.total === users.length
                ? `${users.length} ${users.length === 1 ? 'user' : 'users'}`
                : `${shown.total} of ${users.length} users match`}
            </p>
          )}
          <UserTable
            users={users === null ? null : shown.items}
            sort={sort}
            onSort={sortBy}
            empty={
              <>
                No user matches{filter.trim() ? ` “${filter.trim()}”` : ''}
                {status !== 'ALL' ? ` among the ${statusWord(status).toLowerCase()} users` : ''}.{' '}
                <button type="button" class="button secondary small" onClick={clearSearch}>
                  Show every user
                </button>
              </>
            }
          />
          {shown.pageCount > 1 && <Pager page={shown.page} pageCount={shown.pageCount} onPage={setPage} />}
        </div>
      )}
    </ConsolePage>
  );
}

/** The columns, in order; `sort` names the ones the list sorts by. */
const COLUMNS: { label: string; sort?: SortKey }[] = [
  { label: 'Name', sort: 'name' },
  { label: 'E-mail address', sort: 'email' },
  { label: 'Status', sort: 'status' },
  { label: 'Roles' },
  { label: 'Last sign-in', sort: 'lastLogin' },
];

/**
 * The users shown, or skeleton rows while the list is read (`users` null). A sortable column's header is a button
 * that sorts by it (again: the other way); the header of the column sorted by says so (`aria-sort`), as does the
 * caption.
 */
function UserTable(props: { users: User[] | null; sort: Sort; onSort(key: SortKey): void; empty: ComponentChildren }) {
  const words = SORT_WORDS[props.sort.key];
  return (
    <ScrollingTable label="Users" busy={props.users === null}>
      <table class="users-table">
        <caption class="visually-hidden">
          Users, sorted by {words.column}, {words[props.sort.direction]}
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => {
              const sorted = column.sort === props.sort.key;
              return (
                <th key={column.label} scope="col" aria-sort={sorted ? props.sort.direction : undefined}>
                  {column.sort ? (
                    <button
                      type="button"
                      class={`sort${sorted ? ' sorted' : ''}`}
                      onClick={() => column.sort && props.onSort(column.sort)}
                    >
                      {column.label}
                      <span class="sort-mark" aria-hidden="true">
                        {sorted ? (props.sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        {props.users === null && <SkeletonRows columns={COLUMNS.length} />}
        <tbody>
          {props.users?.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length}>{props.empty}</td>
            </tr>
          )}
          {props.users?.map((user) => (
            <tr key={user.id}>
              <td>
                <a href={`/console/users/${encodeURIComponent(user.id)}`}>{displayName(user)}</a>
              </td>
              <td class="email">{user.email}</td>
              <td class="nowrap">
                <StatusBadge status={user.status} />
              </td>
              <td>
                {inForce(user.roles)
                  .sort((a, b) => a.priority - b.priority)
                  .map((grant) => grant.name)
                  .join(', ') || <span class="muted">None</span>}
              </td>
              <td>
                <When at={user.lastLoginAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}

/**
 * The invitation form in a modal dialog, opened by the page (`dialogRef.showModal()`, focus on `emailRef`): Escape
 * or Cancel closes it, and focus goes back to the button that opened it; an invitation sent closes it with the news.
 * Each closing empties it: no half-typed address or old failure is there when it opens again.
 */
function InviteDialog(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  emailRef: RefObject<HTMLInputElement | null>;
  onInvited(email: string): unknown;
}) {
  const headingId = useId();
  const [round, setRound] = useState(0);
  const close = () => props.dialogRef.current?.close();
  return (
    <dialog
      ref={props.dialogRef}
      class="confirm invite-dialog"
      aria-labelledby={headingId}
      onClose={() => setRound((n) => n + 1)}
    >
      <h2 id={headingId}>Invite someone</h2>
      <p class="muted">They get an e-mail with a link to choose a password and finish signing up.</p>
      <InviteForm
        key={round}
        emailRef={props.emailRef}
        onInvited={async (address) => {
          close();
          await props.onInvited(address);
        }}
        actions={
          <button type="button" class="button secondary" onClick={close}>
            Cancel
          </button>
        }
      />
    </dialog>
  );
}

/**
 * Previous and Next, which stay in the tab order at either end (aria-disabled, not disabled) so that focus is
 * not lost when the last page is reached; the page reached is announced.
 */
function Pager(props: { page: number; pageCount: number; onPage(page: number): void }) {
  const first = props.page <= 1;
  const last = props.page >= props.pageCount;
  return (
    <nav class="pager" aria-label="Pages of users">
      <button
        type="button"
        class="button secondary"
        aria-disabled={first ? 'true' : undefined}
        onClick={() => !first && props.onPage(props.page - 1)}
      >
        Previous
      </button>
      <span aria-live="polite">
        Page {props.page} of {props.pageCount}
      </span>
      <button
        type="button"
        class="button secondary"
        aria-disabled={last ? 'true' : undefined}
        onClick={() => !last && props.onPage(props.page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
