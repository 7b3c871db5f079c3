import type { User } from './types.js';

/** The user list is paged in the client (GET /users returns the whole tenant): 25 a page. */
export const USERS_PAGE_SIZE = 25;

export interface UserPage<T> {
  items: T[];
  /** The page shown, from 1; a page past the end shows the last one. */
  page: number;
  /** At least 1, even with no users. */
  pageCount: number;
  /** Users matching the filter. */
  total: number;
}

type Pageable = Pick<User, 'firstName' | 'lastName' | 'email'>;

/**
 * One page of `users`, keeping their order, after filtering on any part of
 * the first name, last name or e-mail, ignoring case and surrounding blanks.
 */
export function pageUsers<T extends Pageable>(
  users: readonly T[],
  options: { page: number; filter?: string | undefined },
): UserPage<T> {
  const needle = options.filter?.trim().toLowerCase() ?? '';
  const matching = needle
    ? users.filter((user) =>
        [user.firstName, user.lastName, user.email].some((field) => field?.toLowerCase().includes(needle)),
      )
    : [...users];
  const pageCount = Math.max(1, Math.ceil(matching.length / USERS_PAGE_SIZE));
  const wanted = Number.isFinite(options.page) ? Math.trunc(options.page) : 1;
  const page = Math.min(Math.max(1, wanted), pageCount);
  const start = (page - 1) * USERS_PAGE_SIZE;
  return { items: matching.slice(start, start + USERS_PAGE_SIZE), page, pageCount, total: matching.length };
}
