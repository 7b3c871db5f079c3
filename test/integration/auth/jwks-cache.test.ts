import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { handler as getJwks } from '#functions/meta/get-jwks.ts';
import type { Deps } from '#shared/deps.ts';
import type { ContextWithDeps } from '#shared/http/invocation-deps.ts';
import { issueAccessToken, verifyAccessToken } from '#shared/tokens/access-token.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { aContext, anEvent } from '#test/support/events.ts';
import { aClock, aKeysTable, aProcess, countingQueries } from './keys-table.ts';

const subject = { sub: 'usr_1', sid: 'ses_1', app: 'app_1', mid: 'mid_1', roles: ['DEFAULT'] };

/**
 * GET /.well-known/jwks.json through its Lambda handler, in the "process" `deps` (on the invocation's context, as the
 * local gateway hands a stack's deps to its functions); the kids it answers.
 */
async function jwksKids(deps: Deps): Promise<string[]> {
  const event = anEvent({ method: 'GET', path: '/api/v1/.well-known/jwks.json' });
  const result = (await getJwks(event, { ...aContext(), deps } as ContextWithDeps)) as {
    statusCode: number;
    body: string;
  };
  expect(result.statusCode).toBe(200);
  return (JSON.parse(result.body) as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort();
}

/** A token signed with a real key of this deployment but a kid that names no key. */
async function forgedKidToken(deps: Deps, kid: string): Promise<string> {
  const { privateKey } = await signingKeys(deps).active();
  return new SignJWT({ ...subject, iss: deps.config.issuerUrl, aud: subject.app })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(privateKey);
}

describe('GET /.well-known/jwks.json: served from a list at most a second old', () => {
  it('answers 20 requests within a second with one Query of the KEYS partition', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const { kid } = await signingKeys(aProcess(table, { clock })).active();
    const jwks = countingQueries(aProcess(table, { clock }));
    for (let i = 0; i < 20; i++) {
      expect(await jwksKids(jwks.deps)).toEqual([kid]);
      clock.advance(45); // 0.9 s in all
    }
    expect(jwks.queries).toHaveBeenCalledTimes(1);
    clock.advance(100); // the list is a second old: one more read
    await jwksKids(jwks.deps);
    expect(jwks.queries).toHaveBeenCalledTimes(2);
  });

  it('publishes a key this process rotates at once, and one another process rotates within a second', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const first = (await signingKeys(aProcess(table, { clock })).active()).kid;
    const jwks = aProcess(table, { clock });
    expect(await jwksKids(jwks)).toEqual([first]);

    const ownKid = (await signingKeys(jwks).rotate()).ES256;
    expect(await jwksKids(jwks)).toEqual([first, ownKid].sort());

    clock.advance(1_000);
    const otherKid = (await signingKeys(aProcess(table, { clock })).rotate()).ES256;
    clock.advance(1_000); // the list this process read at its own rotation is now a second old
    expect(await jwksKids(jwks)).toEqual([first, ownKid, otherKid].sort());
  });

  it('publishes the first key another function makes within a second, with one read a second meanwhile', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const jwks = countingQueries(aProcess(table, { clock }));
    expect(await jwksKids(jwks.deps)).toEqual([]);
    expect(await jwksKids(jwks.deps)).toEqual([]);
    expect(jwks.queries).toHaveBeenCalledTimes(1);
    const { kid } = await signingKeys(aProcess(table, { clock })).active(); // another function signs first
    clock.advance(1_000);
    expect(await jwksKids(jwks.deps)).toEqual([kid]);
    expect(await jwksKids(jwks.deps)).toEqual([kid]);
    expect(jwks.queries).toHaveBeenCalledTimes(2);
  });
});

describe('verifying a token whose kid is unknown: one read per 30 s per process', () => {
  it('answers 20 tokens with one unknown kid, and 20 with other made-up kids, with one Query', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const signer = aProcess(table, { clock });
    const good = await issueAccessToken(signer, subject);
    const verifier = countingQueries(aProcess(table, { clock }));
    expect(await verifyAccessToken(verifier.deps, good.accessToken)).not.toBeNull();
    expect(verifier.queries).toHaveBeenCalledTimes(1);

    const forged = await forgedKidToken(signer, 'key_00000000000000000000');
    for (let i = 0; i < 20; i++) {
      expect(await verifyAccessToken(verifier.deps, forged)).toBeNull();
      clock.advance(1_000);
    }
    expect(verifier.queries).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 20; i++) {
      expect(await verifyAccessToken(verifier.deps, await forgedKidToken(signer, `key_made_up_${i}`))).toBeNull();
    }
    expect(verifier.queries).toHaveBeenCalledTimes(2); // 20 s after the read: still cooling down

    // Concurrent tokens share one read.
    clock.advance(10_000);
    const burst = await Promise.all(Array.from({ length: 10 }, () => verifyAccessToken(verifier.deps, forged)));
    expect(burst.every((claims) => claims === null)).toBe(true);
    expect(verifier.queries).toHaveBeenCalledTimes(3);
    expect(await verifyAccessToken(verifier.deps, good.accessToken)).not.toBeNull();
    expect(verifier.queries).toHaveBeenCalledTimes(3);
  });

  it('still learns a key another process rotated in, once the cooldown is over', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const signer = aProcess(table, { clock });
    const good = await issueAccessToken(signer, subject);
    const verifier = countingQueries(aProcess(table, { clock }));
    expect(await verifyAccessToken(verifier.deps, good.accessToken)).not.toBeNull();
    // A forged kid costs one read and starts the cooldown in the verifier.
    expect(await verifyAccessToken(verifier.deps, await forgedKidToken(signer, 'key_forged'))).toBeNull();
    expect(verifier.queries).toHaveBeenCalledTimes(2);

    const rotator = aProcess(table, { clock });
    await signingKeys(rotator).rotate();
    const token = await issueAccessToken(rotator, subject); // signed with the new kid
    clock.advance(29_000);
    expect(await verifyAccessToken(verifier.deps, token.accessToken)).toBeNull();
    clock.advance(1_000);
    expect(await verifyAccessToken(verifier.deps, token.accessToken)).toMatchObject({ sub: 'usr_1' });
    expect(verifier.queries).toHaveBeenCalledTimes(3);
  });
});
