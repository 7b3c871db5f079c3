import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { HttpEvent } from '#shared/http/request-state.ts';
import {
  authorizerClaimsVerifier,
  claimList,
  principalFromAuthorizer,
  withAuthorizerEvent,
} from '#shared/plants/authorizer-claims.ts';

/** An event as API Gateway passes it behind a JWT authorizer: every claim a string. */
function eventWith(claims: Record<string, unknown> | undefined): HttpEvent {
  return {
    requestContext: claims === undefined ? {} : { authorizer: { jwt: { claims, scopes: null } } },
  } as unknown as HttpEvent;
}

const claims = {
  iss: 'https://shop.id.example.com',
  sub: 'usr_1',
  aud: 'cli_abcdefghjkmnpqrstvwx',
  client_id: 'cli_abcdefghjkmnpqrstvwx',
  scope: 'openid email',
  sid: 'ses_1',
  app: 'app_1',
  mid: 'mid_1',
  roles: '[DEFAULT SUPER_ADMIN]',
  iat: '1767225000',
  exp: '1767225600',
  jti: 'jti_1',
};

describe("principalFromAuthorizer: the caller from API Gateway's JWT authorizer claims", () => {
  it('reads sub, sid, the tenant (app, mid), the roles of "[A B]" and exp of its digits', () => {
    expect(principalFromAuthorizer(eventWith(claims))).toEqual({
      kind: 'token',
      sub: 'usr_1',
      sid: 'ses_1',
      app: 'app_1',
      mid: 'mid_1',
      roles: ['DEFAULT', 'SUPER_ADMIN'],
      exp: 1767225600,
    });
  });

  it('takes a client_credentials token (no sid, no roles): the client is the caller', () => {
    const { sid: _, roles: __, ...machine } = { ...claims, sub: 'cli_abcdefghjkmnpqrstvwx' };
    expect(principalFromAuthorizer(eventWith(machine))).toMatchObject({
      sub: 'cli_abcdefghjkmnpqrstvwx',
      sid: '',
      roles: [],
    });
  });

  it.each<[string, Record<string, unknown> | undefined]>([
    ['no authorizer in the event (a route without it)', undefined],
    ['no app', { ...claims, app: undefined }],
    ['no mid', { ...claims, mid: undefined }],
    ['no sub', { ...claims, sub: undefined }],
    ['an app outside the tenant alphabet', { ...claims, app: '[app_1 app_2]' }],
    ['an exp that is no integer', { ...claims, exp: 'soon' }],
    ['roles that are no list', { ...claims, roles: 'DEFAULT' }],
  ])('has no caller for %s', (_, given) => {
    expect(principalFromAuthorizer(eventWith(given))).toBeNull();
  });
});

describe('claimList', () => {
  it.each<[Parameters<typeof claimList>[0], string[] | null]>([
    ['[A B]', ['A', 'B']],
    ['[]', []],
    [['A'], ['A']],
    [undefined, []],
    ['A', null],
    [1, null],
  ])('%j → %j', (value, list) => {
    expect(claimList(value)).toEqual(list);
  });
});

describe('authorizerClaimsVerifier', () => {
  it('reads the claims of the event the handler runs with, never the token', async () => {
    const verify = authorizerClaimsVerifier();
    const handler = withAuthorizerEvent(async () => {
      const principal = await verify('any text: API Gateway checked the token');
      return { statusCode: 200, body: JSON.stringify(principal) };
    });
    const result = await handler(eventWith(claims), {} as Context);
    expect(JSON.parse(result.body as string)).toMatchObject({ sub: 'usr_1', app: 'app_1' });
  });

  it('fails loudly outside withAuthorizerEvent (a handler wired without it)', async () => {
    await expect(authorizerClaimsVerifier()('token')).rejects.toThrow(/withAuthorizerEvent/);
  });
});
