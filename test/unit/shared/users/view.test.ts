import { describe, expect, it } from 'vitest';
import { effectiveRoles } from '#shared/roles/authority.ts';
import { toUser } from '#shared/store/user-repo.ts';
import type { User } from '#shared/users/types.ts';
import { displayedEmailStatus, displayedStatus, toUserResponse } from '#shared/users/view.ts';

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
    emailValidationExpiresAt: null,
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
    credentialEpoch: 0,
    passkeyCount: 0,
    liveSessions: {},
    invitationHash: null,
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

describe('displayedEmailStatus', () => {
  it('shows VALIDATION_SENT while the code or invitation is live, UNVALIDATED once it lapsed', () => {
    const sent = (emailValidationExpiresAt: string | null) =>
      displayedEmailStatus({ emailStatus: 'VALIDATION_SENT', emailValidationExpiresAt }, now);
    expect(sent('2026-11-21T12:00:01Z')).toBe('VALIDATION_SENT');
    expect(sent('2026-11-21T12:00:00Z')).toBe('UNVALIDATED');
    expect(sent(null)).toBe('UNVALIDATED');
    expect(displayedEmailStatus({ emailStatus: 'VALIDATED', emailValidationExpiresAt: null }, now)).toBe('VALIDATED');
    expect(displayedEmailStatus({ emailStatus: 'UNVALIDATED', emailValidationExpiresAt: null }, now)).toBe(
      'UNVALIDATED',
    );
  });
});

describe('toUser on a profile stored before VALIDATION_SENT existed', () => {
  const stored = (fields: Record<string, unknown>) => ({
    id: 'usr_1',
    email: 'a@b.test',
    grants: {},
    registeredAt: '2026-11-21T11:55:00Z',
    ...fields,
  });

  it('reads PENDING (or no emailStatus) of a signup as VALIDATION_SENT for the 10 minutes of its code', () => {
    for (const legacy of [{ emailStatus: 'PENDING' }, {}]) {
      const user = toUser(stored({ ...legacy, status: 'INACTIVE' }));
      expect(user).toMatchObject({
        emailStatus: 'VALIDATION_SENT',
        emailValidationExpiresAt: '2026-11-21T12:05:00.000Z',
      });
      expect(toUserResponse(user, now).emailStatus).toBe('VALIDATION_SENT');
      expect(toUserResponse(user, new Date('2026-11-21T12:05:00Z')).emailStatus).toBe('UNVALIDATED');
    }
  });

  it('reads PENDING of an invited user as VALIDATION_SENT for the 7 days of the invitation', () => {
    const user = toUser(stored({ emailStatus: 'PENDING', status: 'INVITED', registeredAt: '2026-11-15T12:00:00Z' }));
    expect(toUserResponse(user, now).emailStatus).toBe('VALIDATION_SENT');
    expect(toUserResponse(user, new Date('2026-11-22T12:00:00Z')).emailStatus).toBe('UNVALIDATED');
  });

  it('leaves the new values as stored', () => {
    const user = toUser(
      stored({ emailStatus: 'VALIDATION_SENT', emailValidationExpiresAt: '2026-11-21T12:01:00Z', status: 'INACTIVE' }),
    );
    expect(user).toMatchObject({ emailStatus: 'VALIDATION_SENT', emailValidationExpiresAt: '2026-11-21T12:01:00Z' });
    expect(toUser(stored({ emailStatus: 'VALIDATED', status: 'ACTIVE' })).emailStatus).toBe('VALIDATED');
  });
});
