import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooserPage, errorPage } from './page.ts';
import {
  type AuthorizationResponse,
  clientCredentials,
  firstForm,
  listen,
  readForm,
  redirect,
  sendHtml,
  sendJson,
} from './wire.ts';

/**
 * GitHub's OAuth 2 web application flow, as GitHub answers it, on loopback: GitHub is no OpenID Provider
 * (no discovery, no ID token), so a client signs in with an access token and reads the REST API's /user and
 * /user/emails. The paths are GitHub's under one origin: the web flow at /login/oauth/..., the API under
 * /api/v3 (where GitHub Enterprise Server has it; github.com has it at api.github.com).
 *
 * Where it is stricter than GitHub: PKCE (S256) is required, where GitHub takes it but does not insist.
 */

export interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  /** 'public' makes it the email of /user; GitHub has 'public', 'private' or null. Null by default. */
  visibility?: 'public' | 'private' | null;
}

export interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  emails: GithubEmail[];
}

export interface GithubClient {
  clientId: string;
  clientSecret: string;
  /** The callback URLs it accepts; any when absent. */
  redirectUris?: string[];
}

export interface GithubStubOptions {
  users: GithubUser[];
  clients: GithubClient[];
  port?: number;
}

export interface GithubStub {
  baseUrl: string;
  port: number;
  /** GET: client_id, redirect_uri, state, scope, code_challenge, code_challenge_method=S256. */
  authorizationEndpoint: string;
  /** POST (form): client_id, client_secret, code, redirect_uri, code_verifier. */
  tokenEndpoint: string;
  /** `${apiBase}/user`, `${apiBase}/user/emails`. */
  apiBase: string;
  close(): Promise<void>;
  /** Adds a user, or replaces the one with the same id. */
  setUser(user: GithubUser): void;
  /**
   * Drives the authorization without a browser: the page's "Continue as <login>" for the user with `userId`,
   * or its Cancel; answers the redirect to the client (code and state, or GitHub's access_denied).
   */
  authorize(authorizationUrl: string | URL, as: { userId: number } | { cancel: true }): Promise<AuthorizationResponse>;
}

interface PendingRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  scope: string;
  codeChallenge: string;
}

interface IssuedCode extends PendingRequest {
  userId: number;
}

/** The scopes GitHub grants: comma-separated in the token response, as GitHub writes them. */
function grantedScopes(scope: string): string[] {
  return scope.split(/[\s,]+/).filter(Boolean);
}

const TITLE = 'Demo GitHub';
const DOCS = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

export async function startGithubStub(options: GithubStubOptions): Promise<GithubStub> {
  const users = new Map(options.users.map((user) => [user.id, user]));
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));
  const pending = new Map<string, PendingRequest>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { userId: number; scopes: string[] }>();

  function authorizePage(res: ServerResponse, query: URLSearchParams) {
    const client = clients.get(query.get('client_id') ?? '');
    const redirectUri = query.get('redirect_uri');
    if (!client) {
      sendHtml(res, 404, errorPage(TITLE, 'There is no application with this client_id.'));
      return;
    }
    // GitHub shows its own page for a callback URL the application does not have, and never redirects there.
    if (!redirectUri || (client.redirectUris && !client.redirectUris.includes(redirectUri))) {
      sendHtml(res, 400, errorPage(TITLE, 'The redirect_uri is not associated with this application.'));
      return;
    }
    const codeChallenge = query.get('code_challenge');
    if (!codeChallenge || query.get('code_challenge_method') !== 'S256') {
      sendHtml(res, 400, errorPage(TITLE, 'This stub requires PKCE: code_challenge with code_challenge_method=S256.'));
      return;
    }
    const id = randomBytes(16).toString('base64url');
    pending.set(id, {
      clientId: client.clientId,
      redirectUri,
      state: query.get('state'),
      scope: query.get('scope') ?? '',
      codeChallenge,
    });
    const choices = [...users.values()].map((user) => ({ value: String(user.id), label: `Continue as ${user.login}` }));
    sendHtml(res, 200, chooserPage(TITLE, 'Choose an account to continue.', `/login/oauth/authorize/${id}`, choices));
  }

  async function decide(req: IncomingMessage, res: ServerResponse, id: string) {
    const request = pending.get(id);
    pending.delete(id);
    if (!request) {
      sendHtml(res, 400, errorPage(TITLE, 'This sign-in has expired. Go back to the app and start again.'));
      return;
    }
    const form = await readForm(req);
    const answer = new URL(request.redirectUri);
    if (form.has('cancel')) {
      // GitHub's answer when the person declines.
      answer.searchParams.set('error', 'access_denied');
      answer.searchParams.set('error_description', 'The user has denied your application access.');
      answer.searchParams.set('error_uri', `${DOCS}/#access-denied`);
    } else {
      const userId = Number(form.get('choice'));
      if (!users.has(userId)) {
        sendHtml(res, 400, errorPage(TITLE, 'There is no such account.'));
        return;
      }
      const code = randomBytes(10).toString('hex');
      codes.set(code, { ...request, userId });
      answer.searchParams.set('code', code);
    }
    if (request.state !== null) answer.searchParams.set('state', request.state);
    redirect(res, answer);
  }

  /**
   * GitHub answers a failed exchange with 200 and an error in the body, never a 4xx: a client has to look at
   * the body. JSON when asked (Accept: application/json), a form otherwise, as GitHub does.
   */
  async function accessToken(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    const json = (req.headers.accept ?? '').includes('application/json');
    const answer = (body: Record<string, string>) => {
      if (json) sendJson(res, 200, body);
      else {
        res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
        res.end(new URLSearchParams(body).toString());
      }
    };
    const { clientId, clientSecret } = clientCredentials(req, form);
    const client = clients.get(clientId ?? '');
    if (!client || client.clientSecret !== clientSecret) {
      answer({
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
        error_uri: `${DOCS}/#incorrect-client-credentials`,
      });
      return;
    }
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    // A code is good for one exchange, whatever comes of it.
    codes.delete(code);
    const badCode = () =>
      answer({
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        error_uri: `${DOCS}/#bad-verification-code`,
      });
    if (!issued || issued.clientId !== client.clientId) return badCode();
    const redirectUri = form.get('redirect_uri');
    if (redirectUri !== null && redirectUri !== issued.redirectUri) {
      answer({
        error: 'redirect_uri_mismatch',
        error_description: 'The redirect_uri MUST match the registered callback URL for this application.',
        error_uri: `${DOCS}/#redirect-uri-mismatch2`,
      });
      return;
    }
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) return badCode();
    const token = `gho_${randomBytes(18).toString('base64url')}`;
    const scopes = grantedScopes(issued.scope);
    tokens.set(token, { userId: issued.userId, scopes });
    answer({ access_token: token, token_type: 'bearer', scope: scopes.join(',') });
  }

  function api(req: IncomingMessage, res: ServerResponse, path: string) {
    // GitHub takes both `Bearer` and its older `token` scheme.
    const token = /^(?:bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const grant = tokens.get(token);
    const user = grant ? users.get(grant.userId) : undefined;
    if (!grant || !user) {
      sendJson(res, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
      return;
    }
    const scopeHeader = { 'x-oauth-scopes': grant.scopes.join(', ') };
    if (path === '/user') {
      const publicEmail = user.emails.find((email) => email.primary && email.visibility === 'public');
      sendJson(
        res,
        200,
        { login: user.login, id: user.id, type: 'User', name: user.name, email: publicEmail?.email ?? null },
        scopeHeader,
      );
      return;
    }
    if (path === '/user/emails') {
      // The addresses need the user:email (or user) scope; GitHub hides what a token may not see as 404.
      if (!grant.scopes.includes('user:email') && !grant.scopes.includes('user')) {
        sendJson(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
        return;
      }
      sendJson(
        res,
        200,
        user.emails.map((email) => ({
          email: email.email,
          primary: email.primary,
          verified: email.verified,
          visibility: email.visibility ?? null,
        })),
        scopeHeader,
      );
      return;
    }
    sendJson(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  }

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/login/oauth/authorize') authorizePage(res, url.searchParams);
    else if (req.method === 'POST' && path.startsWith('/login/oauth/authorize/')) {
      await decide(req, res, path.slice('/login/oauth/authorize/'.length));
    } else if (req.method === 'POST' && path === '/login/oauth/access_token') await accessToken(req, res);
    else if (req.method === 'GET' && path.startsWith('/api/v3/')) api(req, res, path.slice('/api/v3'.length));
    else sendHtml(res, 404, errorPage(TITLE, 'There is nothing here.'));
  }, options.port ?? 0);

  const baseUrl = `http://127.0.0.1:${server.port}`;

  async function authorize(
    authorizationUrl: string | URL,
    as: { userId: number } | { cancel: true },
  ): Promise<AuthorizationResponse> {
    const page = await fetch(authorizationUrl, { redirect: 'manual' });
    const html = await page.text();
    const form = firstForm(html);
    if (page.status !== 200 || !form) throw new Error(`${TITLE} answered ${page.status}: ${html}`);
    if ('userId' in as && !html.includes(`value="${as.userId}"`))
      throw new Error(`${TITLE} offers no user ${as.userId}`);
    const choice: Record<string, string> = 'cancel' in as ? { cancel: '1' } : { choice: String(as.userId) };
    const decided = await fetch(new URL(form.action, baseUrl), {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(choice),
    });
    const location = decided.headers.get('location');
    if (decided.status !== 302 || !location)
      throw new Error(`${TITLE} answered ${decided.status}: ${await decided.text()}`);
    const url = new URL(location);
    return { method: 'GET', url, params: url.searchParams };
  }

  return {
    baseUrl,
    port: server.port,
    authorizationEndpoint: `${baseUrl}/login/oauth/authorize`,
    tokenEndpoint: `${baseUrl}/login/oauth/access_token`,
    apiBase: `${baseUrl}/api/v3`,
    close: server.close,
    setUser: (user) => {
      users.set(user.id, user);
    },
    authorize,
  };
}
