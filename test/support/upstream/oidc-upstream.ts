import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Provider as ProviderClass } from 'oidc-provider';
import { chooserPage, errorPage, escapeHtml } from './page.ts';
import { type AuthorizationResponse, CookieJar, firstForm, listen, readForm, sendHtml } from './wire.ts';

/**
 * A real OpenID Provider (oidc-provider) on loopback, standing in for Google, Microsoft or any other
 * upstream a tenant lets its users sign in with. One instance is one issuer: start one per provider a
 * test needs (each on its own port), or give `issuerPath` so the issuer reads like a provider's own
 * (`http://127.0.0.1:<port>/google`). Clients use client_secret_basic or client_secret_post, must send
 * PKCE (S256), get ID tokens signed RS256 that carry the email and profile claims (as Google's do), and
 * may ask for response_mode=form_post (as Apple's clients must).
 */

export interface UpstreamAccount {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  givenName?: string;
  familyName?: string;
  /**
   * More claims for the ID token and userinfo (e.g. `hd` for a Google Workspace domain). Only claims that
   * an account given at the start names are released (see the provider's claims configuration).
   */
  extraClaims?: Record<string, unknown>;
}

export interface UpstreamClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** The response modes this client may ask for; all of query, fragment and form_post when absent. */
  responseModes?: ('query' | 'form_post' | 'fragment')[];
}

export interface OidcUpstreamOptions {
  accounts: UpstreamAccount[];
  clients?: UpstreamClient[];
  /** 0 (the default) for any free port. */
  port?: number;
  /** The issuer's path on its origin, e.g. '/google'; none by default. */
  issuerPath?: string;
  /** The provider's name on its pages (their title and heading); 'Demo ID' by default. */
  name?: string;
}

export interface OidcUpstream {
  /** The issuer identifier; discovery is at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  port: number;
  close(): Promise<void>;
  addClient(client: UpstreamClient): Promise<void>;
  /** Adds an account, or replaces the one with the same sub (its next ID token says the new claims). */
  setAccount(account: UpstreamAccount): void;
  /**
   * Drives an authorization request without a browser: follows the authorization URL to the account chooser,
   * picks the account `sub` (which signs in and consents at once), or Cancel with `{ cancel: true }`, and
   * answers what the browser would deliver to the client's redirect_uri. An error the provider sends to the
   * redirect_uri (invalid_request, access_denied) is such an answer too; an error it shows as a page throws.
   */
  authorize(authorizationUrl: string | URL, as: { sub: string } | { cancel: true }): Promise<AuthorizationResponse>;
}

/** oidc-provider's notice that it prefers Node 22: this project supports Node 20 too, and the fake runs fine there. */
const RUNTIME_NOTICE = 'Unsupported runtime';

let providerModule: Promise<typeof ProviderClass> | undefined;
function loadProvider(): Promise<typeof ProviderClass> {
  providerModule ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes(RUNTIME_NOTICE)) warn(...args);
    };
    try {
      return (await import('oidc-provider')).Provider;
    } finally {
      console.warn = warn;
    }
  })();
  return providerModule;
}

// One signing key per process: RSA key generation is the slow part of starting a provider.
let signingKey: Promise<JWK> | undefined;
function providerSigningKey(): Promise<JWK> {
  signingKey ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey }) => ({
    ...(await exportJWK(privateKey)),
    kid: 'upstream-rs256',
    alg: 'RS256',
    use: 'sig',
  }));
  return signingKey;
}

interface Stored {
  payload: Record<string, any>;
  expiresAt: number;
}

/**
 * oidc-provider's storage in a Map of this provider's own: the package's default adapter is shared by every
 * provider in the process (and warns that it is for development); clients added after the start live here too.
 */
function mapAdapter() {
  const store = new Map<string, Stored>();
  const live = (key: string) => {
    const stored = store.get(key);
    if (!stored) return undefined;
    if (stored.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return stored.payload;
  };
  const adapter = (model: string) => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id: string, payload: Record<string, any>, expiresIn?: number) {
        const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
        store.set(key(id), { payload, expiresAt });
        if (payload.uid) store.set(`sessionUid:${payload.uid}`, { payload: { id }, expiresAt });
      },
      async find(id: string) {
        return live(key(id));
      },
      async findByUid(uid: string) {
        const pointer = live(`sessionUid:${uid}`);
        return pointer ? live(key(pointer.id)) : undefined;
      },
      async findByUserCode() {
        return undefined;
      },
      async consume(id: string) {
        const payload = live(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id: string) {
        store.delete(key(id));
      },
      async revokeByGrantId(grantId: string) {
        for (const [storedKey, stored] of store) {
          if (stored.payload.grantId === grantId) store.delete(storedKey);
        }
      },
    };
  };
  return {
    adapter,
    putClient: (metadata: Record<string, unknown>) => adapter('Client').upsert(String(metadata.client_id), metadata),
  };
}

function clientMetadata(client: UpstreamClient): Record<string, unknown> {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uris: client.redirectUris,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    // A client registered for basic may also send its secret in the form: oidc-provider takes either.
    token_endpoint_auth_method: 'client_secret_basic',
    ...(client.responseModes ? { response_modes: client.responseModes } : {}),
  };
}

function accountClaims(account: UpstreamAccount): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: account.sub };
  if (account.email !== undefined) claims.email = account.email;
  if (account.emailVerified !== undefined) claims.email_verified = account.emailVerified;
  if (account.name !== undefined) claims.name = account.name;
  if (account.givenName !== undefined) claims.given_name = account.givenName;
  if (account.familyName !== undefined) claims.family_name = account.familyName;
  return { ...account.extraClaims, ...claims };
}

/** The account chooser's button: "Continue as Ada Lovelace <ada@example.com>". */
export function continueAsLabel(account: UpstreamAccount): string {
  if (account.name && account.email) return `Continue as ${account.name} <${account.email}>`;
  return `Continue as ${account.name ?? account.email ?? account.sub}`;
}

const HOUR = 60 * 60;

export async function startOidcUpstream(options: OidcUpstreamOptions): Promise<OidcUpstream> {
  const [Provider, key] = await Promise.all([loadProvider(), providerSigningKey()]);
  const name = options.name ?? 'Demo ID';
  const mount = (options.issuerPath ?? '').replace(/\/+$/, '');
  if (mount && !mount.startsWith('/')) throw new Error(`issuerPath must start with '/': ${options.issuerPath}`);
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const storage = mapAdapter();
  const interactionPrefix = `${mount}/interaction/`;

  // The provider needs its issuer, which needs the port: the server starts first and hands requests on.
  let provider: ProviderClass | undefined;
  let providerCallback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const server = await listen(async (req, res) => {
    if (!provider || !providerCallback) throw new Error('the provider is still starting');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith(interactionPrefix)) {
      await interaction(provider, req, res, path.slice(interactionPrefix.length));
      return;
    }
    if (mount) {
      if (path !== mount && !path.startsWith(`${mount}/`)) {
        sendHtml(res, 404, errorPage(name, 'There is nothing here.'));
        return;
      }
      // oidc-provider reads its mount path from originalUrl minus url, as Express and Koa set them.
      Object.assign(req, { originalUrl: req.url, url: (req.url ?? '').slice(mount.length) || '/' });
    }
    providerCallback(req, res);
  }, options.port ?? 0);

  const issuer = `http://127.0.0.1:${server.port}${mount}`;
  provider = new Provider(issuer, {
    adapter: storage.adapter,
    jwks: { keys: [key] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // The accounts' extra claims are released with the openid scope: oidc-provider releases no claim it is
    // not told of, so one that only an account set later names is not in its tokens.
    claims: {
      openid: ['sub', ...new Set(options.accounts.flatMap((account) => Object.keys(account.extraClaims ?? {})))],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // The email and profile claims go into the ID token as well as to userinfo, as Google's do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${interactionPrefix}${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => accountClaims(account) };
    },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = errorPage(name, `${out.error ?? 'error'}: ${out.error_description ?? ''}`);
    },
    clientBasedCORS: () => true,
    // Set, so that oidc-provider does not ask for them on every run; the values are its own defaults.
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: HOUR,
      Session: HOUR,
      Grant: HOUR,
    },
  });
  providerCallback = provider.callback();

  async function addClient(client: UpstreamClient) {
    if (!provider) throw new Error('the provider is still starting');
    const metadata = clientMetadata(client);
    // Bad metadata fails here, in words, not later as an authorization request's invalid_client.
    await provider.Client.validate(metadata).catch((error: { message?: string; error_description?: string }) => {
      throw new Error(`client ${client.clientId}: ${error.message}: ${error.error_description ?? ''}`);
    });
    await storage.putClient(metadata);
  }
  for (const client of options.clients ?? []) await addClient(client);

  async function interaction(current: ProviderClass, req: IncomingMessage, res: ServerResponse, rest: string) {
    const [uid = '', action] = rest.split('/');
    let details: Awaited<ReturnType<ProviderClass['interactionDetails']>>;
    try {
      details = await current.interactionDetails(req, res);
    } catch {
      sendHtml(res, 400, errorPage(name, 'This sign-in has expired. Go back to the app and start again.'));
      return;
    }
    if (details.uid !== uid) {
      sendHtml(res, 400, errorPage(name, 'This sign-in is not the one this browser started.'));
      return;
    }
    if (req.method === 'GET' && action === undefined) {
      const choices = [...accounts.values()].map((account) => ({
        value: account.sub,
        label: continueAsLabel(account),
      }));
      sendHtml(
        res,
        200,
        chooserPage(name, 'Choose an account to continue.', `${interactionPrefix}${uid}/choose`, choices),
      );
      return;
    }
    if (req.method !== 'POST' || action !== 'choose') {
      sendHtml(res, 404, errorPage(name, 'There is nothing here.'));
      return;
    }
    const form = await readForm(req);
    if (form.has('cancel')) {
      await current.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled the sign-in.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const sub = form.get('choice') ?? '';
    if (!accounts.has(sub)) {
      sendHtml(res, 400, errorPage(name, `There is no account ${sub}.`));
      return;
    }
    // One click signs in and consents: a new grant of everything the client asked for.
    const grant = new current.Grant({ accountId: sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const missingClaims = details.prompt.details.missingOIDCClaims;
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims);
    const grantId = await grant.save();
    await current.interactionFinished(
      req,
      res,
      { login: { accountId: sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function authorize(
    authorizationUrl: string | URL,
    as: { sub: string } | { cancel: true },
  ): Promise<AuthorizationResponse> {
    const origin = new URL(issuer).origin;
    const jar = new CookieJar();
    let url = new URL(authorizationUrl);
    let method = 'GET';
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== origin) return { method: 'GET', url, params: url.searchParams };
      const response = await fetch(url, { method, body, redirect: 'manual', headers: jar.header() });
      jar.store(response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        method = 'GET';
        body = undefined;
        continue;
      }
      const html = await response.text();
      const form = firstForm(html);
      const action = form ? new URL(form.action, url) : undefined;
      // A form_post answer (a success, or an error the provider sends to the client) posts to the client.
      if (form && action && action.origin !== origin) return { method: 'POST', url: action, params: form.fields };
      if (response.status !== 200 || !action) throw new Error(`${name} answered ${response.status} at ${url}: ${html}`);
      // The account chooser: press the account's button, or Cancel.
      if ('cancel' in as) body = new URLSearchParams({ cancel: '1' });
      else if (html.includes(`value="${escapeHtml(as.sub)}"`)) body = new URLSearchParams({ choice: as.sub });
      else throw new Error(`${name} offers no account ${as.sub}`);
      url = action;
      method = 'POST';
    }
    throw new Error(`${name}: too many redirects from ${authorizationUrl}`);
  }

  return {
    issuer,
    port: server.port,
    close: server.close,
    addClient,
    setAccount: (account) => {
      accounts.set(account.sub, account);
    },
    authorize,
  };
}
