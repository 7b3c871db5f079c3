import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type TextKey, t, tn } from '../i18n/index.ts';
import { pageUsers, type User, type UserStatus } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, useResource } from '../ui.tsx';
import { InviteForm } from './invite-form.tsx';
import { ConsolePage } from './layout.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';
import { displayName, inForce, StatusBadge, statusAmong, statusWord, USER_STATUSES, When } from './users-shared.tsx';

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
/** The table's caption, saying its order. */
const SORT_CAPTIONS: Record<SortKey, Record<Direction, TextKey>> = {
  name: { ascending: 'users.sorted.name.ascending', descending: 'users.sorted.name.descending' },
  email: { ascending: 'users.sorted.email.ascending', descending: 'users.sorted.email.descending' },
  status: { ascending: 'users.sorted.status.ascending', descending: 'users.sorted.status.descending' },
  lastLogin: { ascending: 'users.sorted.lastLogin.ascending', descending: 'users.sorted.lastLogin.descending' },
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
    <ConsolePage title={t('users.title')}>
      {deleted && <Notice>{t('users.deleted', { email: deleted })}</Notice>}
      {invited && <Notice>{t('users.invited', { email: invited })}</Notice>}
      <search class="users-tools">
        <div class="field">
          <label for={searchId}>{t('users.search')}</label>
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
          <label for={statusId}>{t('users.statusFilter')}</label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as StatusFilter);
              setPage(1);
            }}
          >
            <option value="ALL">{t('users.allStatuses')}</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="button primary invite-user" aria-haspopup="dialog" onClick={openInvite}>
          {t('users.invite')}
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
            {t('boot.tryAgain')}
          </button>
        </div>
      ) : (
        <div class="panel">
          {aloneHere && (
            <EmptyState
              action={
                <button type="button" class="button primary" aria-haspopup="dialog" onClick={openInvite}>
                  {t('users.inviteFirst')}
                </button>
              }
            >
              {t('users.alone')}
            </EmptyState>
          )}
          {users === null ? (
            <Loading>{t('users.loading')}</Loading>
          ) : (
            <p role="status" class="muted">
              {shown.total === users.length
                ? tn('users.count', users.length)
                : tn('users.matching', users.length, { shown: shown.total })}
            </p>
          )}
          <UserTable
            users={users === null ? null : shown.items}
            sort={sort}
            onSort={sortBy}
            empty={
              <>
                {noMatch(filter.trim(), status)}{' '}
                <button type="button" class="button secondary small" onClick={clearSearch}>
                  {t('users.showEvery')}
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

/** "No user matches “ann” among the invited users.": what the search and the status filter found nothing for. */
function noMatch(search: string, status: StatusFilter): string {
  if (status === 'ALL') return search ? t('users.noMatchSearch', { search }) : t('users.noMatch');
  const among = statusAmong(status);
  return search
    ? t('users.noMatchSearchStatus', { search, status: among })
    : t('users.noMatchStatus', { status: among });
}

/** The columns, in order; `sort` names the ones the list sorts by. */
const COLUMNS: { label: TextKey; sort?: SortKey }[] = [
  { label: 'users.column.name', sort: 'name' },
  { label: 'users.column.email', sort: 'email' },
  { label: 'users.column.status', sort: 'status' },
  { label: 'users.column.roles' },
  { label: 'users.column.lastLogin', sort: 'lastLogin' },
];

/**
 * The users shown, or skeleton rows while the list is read (`users` null). A sortable column's header is a button
 * that sorts by it (again: the other way); the header of the column sorted by says so (`aria-sort`), as does the
 * caption.
 */
function UserTable(props: { users: User[] | null; sort: Sort; onSort(key: SortKey): void; empty: ComponentChildren }) {
  return (
    <ScrollingTable label={t('users.title')} busy={props.users === null}>
      <table class="users-table">
        <caption class="visually-hidden">{t(SORT_CAPTIONS[props.sort.key][props.sort.direction])}</caption>
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
                      {t(column.label)}
                      <span class="sort-mark" aria-hidden="true">
                        {sorted ? (props.sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  ) : (
                    t(column.label)
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
                  .join(', ') || <span class="muted">{t('users.noRoles')}</span>}
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
      <h2 id={headingId}>{t('invitations.inviteSomeone')}</h2>
      <p class="muted">{t('invitations.what')}</p>
      <InviteForm
        key={round}
        emailRef={props.emailRef}
        onInvited={async (address) => {
          close();
          await props.onInvited(address);
        }}
        actions={
          <button type="button" class="button secondary" onClick={close}>
            {t('consoleCommon.cancel')}
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
    <nav class="pager" aria-label={t('users.pages')}>
      <button
        type="button"
        class="button secondary"
        aria-disabled={first ? 'true' : undefined}
        onClick={() => !first && props.onPage(props.page - 1)}
      >
        {t('users.previous')}
      </button>
      <span aria-live="polite">{t('users.page', { page: props.page, count: props.pageCount })}</span>
      <button
        type="button"
        class="button secondary"
        aria-disabled={last ? 'true' : undefined}
        onClick={() => !last && props.onPage(props.page + 1)}
      >
        {t('users.next')}
      </button>
    </nav>
  );
}
