import { describe, expect, it } from 'vitest';
import type { User } from '#shared/users/types.ts';
import { displayedStatus, effectiveRoles, toUserResponse } from '#shared/users/view.ts';

const now = new Date('2026-11-21T12:00:00Z');
const grant = (name: string, priority: number, expiresAt: string | null = null) => ({
  roleId: `rol_${name}`,
  name,
  priority,
  grantedAt: '2026-01-01T00:00:00Z',
  grantedBy: 'system',
  expiresAt,
});

function aUser(overrides: Partial<User> = {}): User {
  return {
    id: 'usr_1',
    email: 'a@b.test',
    emailStatus: 'VALIDATED',
    firstName: 'Ada',
    lastName: 'L',
    phone: null,
    status: 'ACTIVE',
    passwordHash: '$argon2id$secret',
    totpEnabled: true,
    totpSecret: 'ciphertext',
    totpLastStep: 5,
    backupCodes: ['hash'],
    totpPendingSecret: null,
    totpPendingBackupCodes: [],
    grants: {},
    registeredAt: '2026-01-01T00:00:00Z',
    lastLoginAt: null,
    lockedUntil: null,
    ...overrides,
  };
}

describe('effectiveRoles', () => {
  it('counts only unexpired grants; authority is the lowest priority held', () => {
    const user = aUser({
      grants: {
        a: grant('DEFAULT', 99),
        b: grant('ADMIN', 1, '2026-11-21T11:59:59Z'),
        c: grant('EDITOR', 10, '2026-11-21T12:00:01Z'),
      },
    });
    expect(effectiveRoles(user, now)).toEqual({ names: ['DEFAULT', 'EDITOR'], authority: 10 });
  });

  it('gives no authority at all without grants', () => {
    expect(effectiveRoles(aUser(), now).authority).toBeGreaterThan(99);
  });
});

describe('toUserResponse', () => {
  it('shows TIMED_OUT while a lockout holds, and never a hash, secret or backup code', () => {
    const locked = aUser({ lockedUntil: '2026-11-21T12:10:00Z', grants: { a: grant('DEFAULT', 99) } });
    const view = toUserResponse(locked, now);
    expect(view.status).toBe('TIMED_OUT');
    expect(JSON.stringify(view)).not.toMatch(/argon2|ciphertext|hash/);
    expect(view.roles).toEqual([{ roleId: 'rol_DEFAULT', name: 'DEFAULT', priority: 99, expiresAt: null }]);
    expect(displayedStatus(aUser({ lockedUntil: '2026-11-21T11:00:00Z' }), now)).toBe('ACTIVE');
    expect(displayedStatus(aUser({ status: 'DISABLED', lockedUntil: '2026-11-21T12:10:00Z' }), now)).toBe('DISABLED');
  });
});
