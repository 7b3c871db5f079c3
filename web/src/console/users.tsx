import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { pageUsers, type User, type UserStatus } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, TableHead, useResource } from '../ui.tsx';
import { ConsolePage } from './layout.tsx';
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

/**
 * `/console/users`: every user of the tenant, sorted by e-mail address, searched and paged here 25 a page
 * (the SDK's `pageUsers`). The search, status filter and page live in the address, so that coming back from
 * a user's page finds the list as it was.
 */
export function Users() {
  const { query, path, route } = useLocation();
  const { users, error, reload } = useAllUsers();
  const [filter, setFilter] = useState(query.q ?? '');
  const [status, setStatus] = useState<StatusFilter>(
    USER_STATUSES.includes(query.status as UserStatus) ? (query.status as UserStatus) : 'ALL',
  );
  const [page, setPage] = useState(Number(query.page) || 1);
  // The notice of a deletion (from the user's page) stays while the address is tidied below.
  const [deleted] = useState(query.deleted);
  const searchId = useId();
  const statusId = useId();

  useEffect(() => {
    const params = new URLSearchParams();
    if (filter) params.set('q', filter);
    if (status !== 'ALL') params.set('status', status);
    if (page > 1) params.set('page', String(page));
    const search = params.toString();
    route(`${path}${search ? `?${search}` : ''}`, true);
  }, [filter, status, page, path, route]);

  const shown = useMemo(() => {
    const byStatus = (users ?? []).filter((user) => status === 'ALL' || user.status === status);
    return pageUsers(byStatus, { page, filter });
  }, [users, status, page, filter]);

  return (
    <ConsolePage title="Users">
      {deleted && <Notice>{deleted} was deleted.</Notice>}
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
      </search>
      {error ? (
        <div class="panel">
          <Problem error={error} />
          <button type="button" class="button secondary" onClick={reload}>
            Try again
          </button>
        </div>
      ) : users === null ? (
        <p role="status">Loading the users…</p>
      ) : (
        <UserTable
          users={shown.items}
          total={shown.total}
          all={users.length}
          page={shown.page}
          pageCount={shown.pageCount}
          onPage={setPage}
        />
      )}
    </ConsolePage>
  );
}

function UserTable(props: {
  users: User[];
  total: number;
  all: number;
  page: number;
  pageCount: number;
  onPage(page: number): void;
}) {
  const count =
    props.total === props.all
      ? `${props.all} ${props.all === 1 ? 'user' : 'users'}`
      : `${props.total} of ${props.all} users match`;
  return (
    <div class="panel">
      <p role="status" class="muted">
        {count}
      </p>
      <ScrollingTable label="Users">
        <table>
          <caption class="visually-hidden">Users, sorted by e-mail address</caption>
          <TableHead columns={['Name', 'E-mail address', 'Status', 'Roles', 'Last sign-in']} />
          <tbody>
            {props.users.length === 0 && (
              <tr>
                <td colSpan={5} class="muted">
                  No user matches.
                </td>
              </tr>
            )}
            {props.users.map((user) => (
              <tr key={user.id}>
                <td>
                  {displayName(user) === user.email ? <span class="muted nowrap">No name</span> : displayName(user)}
                </td>
                <td>
                  <a href={`/console/users/${encodeURIComponent(user.id)}`}>{user.email}</a>
                </td>
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
      {props.pageCount > 1 && <Pager page={props.page} pageCount={props.pageCount} onPage={props.onPage} />}
    </div>
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
