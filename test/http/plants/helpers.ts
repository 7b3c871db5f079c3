import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type JWTPayload, SignJWT } from 'jose';
import { expect } from 'vitest';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, call, identityApi } from '#test/support/http.ts';

/** Helpers shared by the plant store's black-box tests (a plain module: vitest runs only *.test.ts). */

const deps = makeTestDeps();

export function plantsApi(api: { readonly url: string; readonly plantsUrl: string }) {
  const { logIn } = identityApi(() => api.url);

  /** POST /plants with a JSON text as given (so that number literals reach the server verbatim). */
  function createPlant(
    body: unknown,
    token: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    return call(
      api.plantsUrl,
      'POST',
      '/plants',
      {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...headers,
      },
      body,
    );
  }

  /** A fresh tenant and one of its users (DEFAULT role), logged in through the identity service. */
  async function aSignedInUser() {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    return { tenant, user, token };
  }

  /**
   * A JWT signed with the identity service's own active signing key, with
   * these claims and header: tokens the identity would never issue (another
   * issuer, expired, a claim missing), yet with a good signature.
   */
  async function signedByIdentity(claims: JWTPayload, header: Record<string, unknown> = {}) {
    const { kid, privateKey } = await signingKeys(deps).active();
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT', ...header }).sign(privateKey);
  }

  return { createPlant, logIn, aSignedInUser, signedByIdentity };
}

/** The claims of a token (decoded, not verified). */
export function claimsOf(token: string): JWTPayload & Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** Every item the plant store holds for a tenant, read straight from its table. */
export async function storedPlants(stack: { plantsTableName: string }, t: TestTenant) {
  const prefix = `T#${t.app}#${t.mid}#`;
  const { Items = [] } = await deps.store.doc.send(
    new ScanCommand({
      TableName: stack.plantsTableName,
      FilterExpression: 'begins_with(pk, :prefix)',
      ExpressionAttributeValues: { ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items;
}

/** The plant store's error body: exactly `{ error, message }`, as application/json. */
export function expectPlantError(res: Answer, status: number, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
  expect(res.body.error).toBe(status);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  if (message) expect(res.body.message).toMatch(message);
}
