import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { takeLiveItem } from './take.ts';
import { type TransactItem, transact } from './transact.ts';
import { HOUR_MS, ttlAfter } from './ttl.ts';

/**
 * The short-lived items of an OpenID Connect sign-in (shared/oidc/README.md): the authorization request
 * while the user signs in, the code until its client redeems it, the user's consent to a third-party
 * client, and an RP-initiated logout while the sign-out page runs. Each lives in its own partition (like
 * challenges), keyed by tenant first.
 */

export type Prompt = 'none' | 'login' | 'consent';

/** A checked authorization request (GET /oidc/authorize), waiting for the sign-in page. */
export interface AuthorizationRequest {
  requestId: string;
  clientId: string;
  redirectUri: string;
  /** Whether the request named its redirect URI (a client with one may leave it out): then the token request must too. */
  redirectUriGiven: boolean;
  state: string | null;
  nonce: string | null;
  codeChallenge: string;
  scopes: string[];
  /** What the sign-in page is told: `login` when a sign-in is asked (with consent or not), else `consent` or `none`. */
  prompt: Prompt | null;
  /** `consent` was among the prompt's values: asked even when a sign-in is asked too (absent on older requests). */
  promptConsent?: boolean;
  maxAge: number | null;
  loginHint: string | null;
  createdAt: string;
  expiresAt: string;
}

const REQUEST_FIELDS: FieldNames<AuthorizationRequest> = {
  requestId: true,
  clientId: true,
  redirectUri: true,
  redirectUriGiven: true,
  state: true,
  nonce: true,
  codeChallenge: true,
  scopes: true,
  prompt: true,
  promptConsent: true,
  maxAge: true,
  loginHint: true,
  createdAt: true,
  expiresAt: true,
};

/** An authorization code: what it was issued for, by its hash. */
export interface AuthorizationCode {
  codeHash: string;
  clientId: string;
  redirectUri: string;
  /** The request named it: the token request must name the same (RFC 6749 4.1.3). */
  redirectUriGiven: boolean;
  codeChallenge: string;
  nonce: string | null;
  scopes: string[];
  userId: string;
  /** The user's credential epoch when the browser session completed the request: a change since voids the code. */
  epoch: number;
  /** When the browser session last proved its first factor (the ID token's auth_time). */
  authenticatedAt: string;
  amr: string[];
  /** The browser's, for the client's session (a confidential client redeems from its own server). */
  ip: string;
  userAgent: string;
  createdAt: string;
  expiresAt: string;
  /** Set by the redemption, with the session it started: a second redemption revokes that session. */
  redeemedAt: string | null;
  sessionId: string | null;
}

const CODE_FIELDS: FieldNames<AuthorizationCode> = {
  codeHash: true,
  clientId: true,
  redirectUri: true,
  redirectUriGiven: true,
  codeChallenge: true,
  nonce: true,
  scopes: true,
  userId: true,
  epoch: true,
  authenticatedAt: true,
  amr: true,
  ip: true,
  userAgent: true,
  createdAt: true,
  expiresAt: true,
  redeemedAt: true,
  sessionId: true,
};

/** An RP-initiated logout: where the sign-out page sends the browser once it has signed out. */
export interface LogoutRequest {
  logoutId: string;
  /** The client's registered post-logout URI with `state`, or null (the page says "signed out"). */
  redirectTo: string | null;
  expiresAt: string;
}

const LOGOUT_FIELDS: FieldNames<LogoutRequest> = { logoutId: true, redirectTo: true, expiresAt: true };

/** What a user allowed a third-party client to see. */
export interface Consent {
  clientId: string;
  scopes: string[];
  grantedAt: string;
}

const CONSENT_FIELDS: FieldNames<Consent> = { clientId: true, scopes: true, grantedAt: true };

/** An item read before its `expiresAt` (DynamoDB's TTL deletes late, DynamoDB Local never). */
const live = (item: Record<string, unknown> | undefined, now: Date) =>
  item && typeof item.expiresAt === 'string' && Date.parse(item.expiresAt) > now.getTime() ? item : undefined;

export function oidcFlowRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async createRequest(t: TenantRef, request: AuthorizationRequest): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.oidcRequest(t, request.requestId),
            entity: 'OIDC_REQUEST',
            ...request,
            ttl: ttlAfter(request.expiresAt, HOUR_MS),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    /** A request not yet completed, cancelled or expired; null otherwise. */
    async getRequest(t: TenantRef, requestId: string, now: Date): Promise<AuthorizationRequest | null> {
      const item = live(await getItem(store, keys.oidcRequest(t, requestId)), now);
      return item ? fieldsOf<AuthorizationRequest>(item, REQUEST_FIELDS) : null;
    },

    /**
     * Completes a request: its code stored and the request gone (and a consent given now remembered), in
     * one transaction, so a request yields one code at most (two completions racing: one wins). False when
     * the request was already used or expired.
     */
    async issueCode(
      t: TenantRef,
      requestId: string,
      code: AuthorizationCode,
      now: Date,
      consent: Consent | null = null,
    ): Promise<boolean> {
      const failed = await transact(store, {
        request: {
          Delete: {
            TableName: tableName,
            Key: keys.oidcRequest(t, requestId),
            ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          },
        },
        code: {
          Put: {
            TableName: tableName,
            Item: {
              ...keys.oidcCode(t, code.codeHash),
              entity: 'OIDC_CODE',
              ...code,
              ttl: ttlAfter(code.expiresAt, HOUR_MS),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        consent: consent && {
          Put: {
            TableName: tableName,
            Item: { ...keys.oidcConsent(t, code.userId, consent.clientId), entity: 'OIDC_CONSENT', ...consent },
          },
        },
      });
      if (failed.has('code')) throw new Error('authorization code collision');
      return !failed.has('request');
    },

    /** Takes a request away (cancelled): the request as it was, or null when it was already used or expired. */
    async takeRequest(t: TenantRef, requestId: string, now: Date): Promise<AuthorizationRequest | null> {
      return take(keys.oidcRequest(t, requestId), now, REQUEST_FIELDS);
    },

    async getCode(t: TenantRef, codeHash: string): Promise<AuthorizationCode | null> {
      const item = await getItem(store, keys.oidcCode(t, codeHash));
      return item ? fieldsOf<AuthorizationCode>(item, CODE_FIELDS) : null;
    },

    /**
     * The write that redeems a code, for the transaction that starts the client's session: it names that
     * session, and only a code never redeemed and within its 60 s passes, so of concurrent redemptions
     * exactly one commits.
     */
    redeemItem(t: TenantRef, codeHash: string, sessionId: string, now: Date): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.oidcCode(t, codeHash),
          UpdateExpression: 'SET redeemedAt = :now, sessionId = :sid',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(redeemedAt) OR redeemedAt = :null) AND expiresAt > :now',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':sid': sessionId, ':null': null },
        },
      };
    },

    async getConsent(t: TenantRef, userId: string, clientId: string): Promise<Consent | null> {
      const item = await getItem(store, keys.oidcConsent(t, userId, clientId));
      return item ? fieldsOf<Consent>(item, CONSENT_FIELDS) : null;
    },

    async createLogout(t: TenantRef, logout: LogoutRequest): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.oidcLogout(t, logout.logoutId),
            entity: 'OIDC_LOGOUT',
            ...logout,
            ttl: ttlAfter(logout.expiresAt, HOUR_MS),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    /** A logout's next step, once: null when unknown, used or expired. */
    async takeLogout(t: TenantRef, logoutId: string, now: Date): Promise<LogoutRequest | null> {
      return take(keys.oidcLogout(t, logoutId), now, LOGOUT_FIELDS);
    },
  };

  /** Deletes an item that is still live, answering it as it was; null when it was not there (or expired). */
  async function take<T>(key: { pk: string; sk: string }, now: Date, names: FieldNames<T>): Promise<T | null> {
    const taken = await takeLiveItem(store, key, now);
    return taken ? fieldsOf<T>(taken, names) : null;
  }
}
