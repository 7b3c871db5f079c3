import { describe, expect, it } from 'vitest';
import { hasRoles, pageUsers, type User, type UserRole } from '../../client/src/index.ts';
import { aUserResponse } from './support/fake-fetch.ts';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const grant = (name: string, expiresAt: string | null = null): UserRole => ({
  roleId: `rol_${name}`,
  name,
  priority: 10,
  expiresAt,
});

describe('hasRoles', () => {
  const user = aUserResponse({
    roles: [grant('ADMIN'), grant('EDITOR', '2026-11-22T00:00:00.000Z'), grant('AUDITOR', '2026-11-21T11:59:59.999Z')],
  });

  it.each<[string, string[], boolean]>([
    ['every required role held', ['ADMIN', 'EDITOR'], true],
    ['one required role held', ['ADMIN'], true],
    ['one of two missing (AND, not OR)', ['ADMIN', 'SUPER_ADMIN'], false],
    ['an expired grant does not count', ['AUDITOR'], false],
    ['an expired grant fails the whole requirement', ['ADMIN', 'AUDITOR'], false],
    ['an unexpired grant with an expiry counts', ['EDITOR'], true],
    ['no requirement', [], true],
    ['names are exact (case matters)', ['admin'], false],
  ])('%s', (_name, required, expected) => {
    expect(hasRoles(user, required, NOW)).toBe(expected);
  });

  it('a grant expiring exactly now has no effect', () => {
    expect(hasRoles(aUserResponse({ roles: [grant('X', NOW.toISOString())] }), ['X'], NOW)).toBe(false);
  });

  it('no user holds no role', () => {
    expect(hasRoles(null, ['ADMIN'])).toBe(false);
    expect(hasRoles(undefined, [])).toBe(false);
  });

  it('counts against the current time by default', () => {
    const past = grant('OLD', '2000-01-01T00:00:00.000Z');
    const future = grant('NEW', '2999-01-01T00:00:00.000Z');
    expect(hasRoles(aUserResponse({ roles: [past, future] }), ['NEW'])).toBe(true);
    expect(hasRoles(aUserResponse({ roles: [past, future] }), ['OLD'])).toBe(false);
  });
});

describe('pageUsers', () => {
  const users: User[] = Array.from({ length: 60 }, (_, i) =>
    aUserResponse({ id: `usr_${i}`, email: `user${i}@shop.test`, firstName: `First${i}`, lastName: `Last${i}` }),
  );

  it('pages 25 users at a time, numbering pages from 1', () => {
    const first = pageUsers(users, { page: 1 });
    expect(first.items.map((u) => u.id)).toEqual(users.slice(0, 25).map((u) => u.id));
    expect(first).toMatchObject({ page: 1, pageCount: 3, total: 60 });
    expect(pageUsers(users, { page: 2 }).items[0]?.id).toBe('usr_25');
    const last = pageUsers(users, { page: 3 });
    expect(last.items.map((u) => u.id)).toEqual(users.slice(50).map((u) => u.id));
    expect(last.page).toBe(3);
  });

  it('shows the last page for a page past the end and the first for a page below 1', () => {
    expect(pageUsers(users, { page: 9 })).toMatchObject({ page: 3, pageCount: 3 });
    expect(pageUsers(users, { page: 0 }).page).toBe(1);
    expect(pageUsers(users, { page: -4 }).page).toBe(1);
    expect(pageUsers(users, { page: Number.NaN }).page).toBe(1);
  });

  it('has one empty page when there are no users', () => {
    expect(pageUsers([], { page: 1 })).toEqual({ items: [], page: 1, pageCount: 1, total: 0 });
  });

  it('exactly 25 users make one page', () => {
    expect(pageUsers(users.slice(0, 25), { page: 1 })).toMatchObject({ pageCount: 1, total: 25 });
    expect(pageUsers(users.slice(0, 26), { page: 1 })).toMatchObject({ pageCount: 2, total: 26 });
  });

  const people: User[] = [
    aUserResponse({ id: 'a', firstName: 'Rosa', lastName: 'Parks', email: 'rp@shop.test' }),
    aUserResponse({ id: 'b', firstName: 'Ivy', lastName: 'Rosenthal', email: 'ivy@shop.test' }),
    aUserResponse({ id: 'c', firstName: null, lastName: null, email: 'primrose@garden.test' }),
    aUserResponse({ id: 'd', firstName: 'Fern', lastName: 'Gully', email: 'fern@shop.test' }),
  ];

  it.each<[string, string, string[]]>([
    ['first name, any case', 'ROSA', ['a']],
    ['any part of the first or last name', 'rose', ['b', 'c']],
    ['last name', 'gull', ['d']],
    ['e-mail', 'GARDEN.test', ['c']],
    ['surrounding blanks are ignored', '  ivy ', ['b']],
    ['no match', 'cactus', []],
    ['an empty filter matches everyone', '', ['a', 'b', 'c', 'd']],
  ])('filters on %s', (_name, filter, ids) => {
    const page = pageUsers(people, { page: 1, filter });
    expect(page.items.map((u) => u.id)).toEqual(ids);
    expect(page.total).toBe(ids.length);
  });

  it('pages the filtered users and counts only them', () => {
    const page = pageUsers(users, { page: 1, filter: 'first1' });
    // First1, First10..First19
    expect(page).toMatchObject({ total: 11, pageCount: 1 });
    expect(pageUsers(users, { page: 2, filter: 'shop.test' })).toMatchObject({ total: 60, page: 2, pageCount: 3 });
  });

  it('does not change the list it is given', () => {
    const copy = [...people];
    pageUsers(people, { page: 1, filter: 'rose' });
    expect(people).toEqual(copy);
  });
});
