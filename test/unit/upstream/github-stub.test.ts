import { createHash, randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GithubStub, startGithubStub } from '#test/support/upstream/github-stub.ts';

const octocat = {
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  emails: [
    { email: 'octocat@github.example', primary: true, verified: true, visibility: 'public' as const },
    { email: 'octo@work.example', primary: false, verified: false },
  ],
};
const hubot = {
  id: 7,
  login: 'hubot',
  name: null,
  emails: [{ email: 'hubot@github.example', primary: true, verified: true, visibility: 'private' as const }],
};
const app = { clientId: 'Iv1.stub', clientSecret: 'stub-secret', redirectUri: 'http://127.0.0.1:9/github/callback' };

let github: GithubStub;

beforeAll(async () => {
  github = await startGithubStub({
    users: [octocat, hubot],
    clients: [{ clientId: app.clientId, clientSecret: app.clientSecret, redirectUris: [app.redirectUri] }],
  });
});
afterAll(() => github?.close());

function started(scope = 'read:user user:email') {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = new URL(github.authorizationEndpoint);
  url.search = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    state,
    scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier, state };
}

async function exchange(code: string, verifier: string, overrides: Record<string, string> = {}, accept = 'json') {
  const response = await fetch(github.tokenEndpoint, {
    method: 'POST',
    headers: accept === 'json' ? { accept: 'application/json' } : {},
    body: new URLSearchParams({
      client_id: app.clientId,
      client_secret: app.clientSecret,
      code,
      redirect_uri: app.redirectUri,
      code_verifier: verifier,
      ...overrides,
    }),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function signIn(userId: number, scope?: string) {
  const start = started(scope);
  const answer = await github.authorize(start.url, { userId });
  const token = await exchange(answer.params.get('code') ?? '', start.verifier);
  return JSON.parse(token.text).access_token as string;
}

const api = (path: string, token: string) =>
  fetch(`${github.apiBase}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });

describe('a GitHub OAuth stub', () => {
  it('sends the chosen user back with a code and the state, and swaps the code for a bearer token', async () => {
    const start = started();
    const answer = await github.authorize(start.url, { userId: octocat.id });
    expect(`${answer.url.origin}${answer.url.pathname}`).toBe(app.redirectUri);
    expect(answer.params.get('state')).toBe(start.state);

    const token = await exchange(answer.params.get('code') ?? '', start.verifier);
    expect(token.status).toBe(200);
    expect(JSON.parse(token.text)).toEqual({
      access_token: expect.stringMatching(/^gho_/),
      token_type: 'bearer',
      scope: 'read:user,user:email',
    });
  });

  it('answers a form, not JSON, to a token request that does not ask for JSON', async () => {
    const start = started();
    const answer = await github.authorize(start.url, { userId: octocat.id });
    const token = await exchange(answer.params.get('code') ?? '', start.verifier, {}, 'form');
    expect(token.type).toMatch(/^application\/x-www-form-urlencoded/);
    expect(new URLSearchParams(token.text).get('token_type')).toBe('bearer');
  });

  it('serves /user (the public email or null) and /user/emails with verified and primary flags', async () => {
    const octocatToken = await signIn(octocat.id);
    const user = await api('/user', octocatToken);
    expect(user.headers.get('x-oauth-scopes')).toBe('read:user, user:email');
    expect(await user.json()).toMatchObject({
      id: 583231,
      login: 'octocat',
      name: 'The Octocat',
      email: 'octocat@github.example',
    });
    expect(await (await api('/user/emails', octocatToken)).json()).toEqual([
      { email: 'octocat@github.example', primary: true, verified: true, visibility: 'public' },
      { email: 'octo@work.example', primary: false, verified: false, visibility: null },
    ]);

    const hubotToken = await signIn(hubot.id);
    expect(await (await api('/user', hubotToken)).json()).toMatchObject({ id: 7, name: null, email: null });
  });

  it('keeps /user/emails from a token without the user:email scope', async () => {
    const token = await signIn(octocat.id, 'read:user');
    expect((await api('/user/emails', token)).status).toBe(404);
    expect((await api('/user', token)).status).toBe(200);
  });

  it('refuses a wrong token with 401 Bad credentials', async () => {
    const response = await api('/user', 'gho_not-a-token');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'Bad credentials' });
  });

  it('answers a failed exchange with 200 and an error, as GitHub does: wrong verifier, reused code, wrong secret', async () => {
    const start = started();
    const code = (await github.authorize(start.url, { userId: octocat.id })).params.get('code') ?? '';
    const wrongVerifier = await exchange(code, randomBytes(32).toString('base64url'));
    expect(wrongVerifier.status).toBe(200);
    expect(JSON.parse(wrongVerifier.text)).toMatchObject({ error: 'bad_verification_code' });
    // The failed attempt used the code up.
    expect(JSON.parse((await exchange(code, start.verifier)).text)).toMatchObject({ error: 'bad_verification_code' });

    const again = started();
    const second = (await github.authorize(again.url, { userId: octocat.id })).params.get('code') ?? '';
    expect(JSON.parse((await exchange(second, again.verifier, { client_secret: 'wrong' })).text)).toMatchObject({
      error: 'incorrect_client_credentials',
    });

    const third = started();
    const thirdCode = (await github.authorize(third.url, { userId: octocat.id })).params.get('code') ?? '';
    expect(JSON.parse((await exchange(thirdCode, third.verifier)).text)).toHaveProperty('access_token');
    expect(JSON.parse((await exchange(thirdCode, third.verifier)).text)).toMatchObject({
      error: 'bad_verification_code',
    });
  });

  it('sends access_denied when the person cancels', async () => {
    const start = started();
    const answer = await github.authorize(start.url, { cancel: true });
    expect(answer.params.get('error')).toBe('access_denied');
    expect(answer.params.get('state')).toBe(start.state);
    expect(answer.params.has('code')).toBe(false);
  });

  it('shows a page with a "Continue as <login>" button per user and never redirects to an unknown callback', async () => {
    const page = await fetch(started().url);
    const html = await page.text();
    expect(html).toContain('<title>Demo GitHub</title>');
    expect(html).toContain('>Continue as octocat</button>');
    expect(html).toContain('>Continue as hubot</button>');

    const elsewhere = started();
    elsewhere.url.searchParams.set('redirect_uri', 'http://127.0.0.1:9/evil');
    const refused = await fetch(elsewhere.url, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('works with oauth4webapi as a plain OAuth 2 server, whose 200-with-error answers it refuses as invalid', async () => {
    const as: oauth.AuthorizationServer = {
      issuer: github.baseUrl,
      authorization_endpoint: github.authorizationEndpoint,
      token_endpoint: github.tokenEndpoint,
    };
    const client: oauth.Client = { client_id: app.clientId };
    const start = started();
    const answer = await github.authorize(start.url, { userId: octocat.id });
    const params = oauth.validateAuthResponse(as, client, answer.params, start.state);
    const request = () =>
      oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(app.clientSecret),
        params,
        app.redirectUri,
        start.verifier,
        { [oauth.allowInsecureRequests]: true },
      );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await request());
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'read:user,user:email' });
    await expect(oauth.processAuthorizationCodeResponse(as, client, await request())).rejects.toMatchObject({
      code: 'OAUTH_INVALID_RESPONSE',
    });
  });
});
