import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProviderKind, SignInProviderButton } from '../sign-in-providers/schemas.ts';
import type { StoreClient } from './client.ts';
import { conditionalWrite } from './errors.ts';
import { keys, signInProviderKeys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { queryAll } from './query.ts';
import { takeLiveItem } from './take.ts';
import type { TransactItem } from './transact.ts';
import { ttlAfter } from './ttl.ts';

/** Where a provider's endpoints are, as its discovery document (or, for GitHub, its documentation) says. */
export interface ProviderEndpoints {
  /** The issuer as the provider's metadata states it (Entra ID's multi-tenant one holds `{tenantid}`). */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** OpenID providers: their key set. */
  jwksUri: string | null;
  /** OpenID providers: where claims missing from the ID token are read; GitHub: its API's base. */
  userinfoEndpoint: string | null;
  /** RFC 9207: the provider names itself (`iss`) in its authorization response. */
  issParameter: boolean;
  /** The ID token signing algorithms it uses (`id_token_signing_alg_values_supported`). */
  signingAlgs: string[];
}

/** A sign-in provider of a tenant, as stored. */
export interface StoredSignInProvider {
  id: string;
  kind: ProviderKind;
  displayName: string;
  clientId: string;
  /** The client secret (APPLE: the private key's PEM), encrypted by the key vault (purpose `sign-in-provider`). */
  secretCiphertext: string;
  apple: { teamId: string; keyId: string } | null;
  /** OIDC: the issuer the admin gave; the others: their kind's. */
  issuer: string;
  microsoftTenant: string | null;
  scopes: string[];
  enabled: boolean;
  trustEmail: boolean;
  order: number;
  endpoints: ProviderEndpoints;
  secretSetAt: string;
  createdAt: string;
  /** Also the item's version: an update commits only over the item it read. */
  updatedAt: string;
}

/** What a sign-in at a provider is for: signing in (or up), or linking the provider to the signed-in user. */
export type ProviderIntent = 'SIGN_IN' | 'LINK';

/** A sign-in sent to a provider, waiting for its callback; found by the SHA-256 of the `state`. */
export interface ProviderFlow {
  providerId: string;
  intent: ProviderIntent;
  nonce: string;
  /** Our PKCE verifier towards the provider. */
  pkceVerifier: string;
  /** The page's PKCE challenge: only its verifier takes the result. */
  pageChallenge: string;
  returnTo: string;
  /** LINK: the user and session that asked. */
  userId: string | null;
  sessionId: string | null;
  expiresAt: string;
}

/** What a provider proved at the callback, for the page that started to take. */
export interface ProviderResult {
  providerId: string;
  intent: ProviderIntent;
  pageChallenge: string;
  /** The SHA-256 of the provider's subject (`sub`, GitHub's user id) with the tenant and provider. */
  subjectHash: string;
  email: string | null;
  /** The provider says it verified `email` (and its kind is one whose word on that counts). */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  userId: string | null;
  sessionId: string | null;
  /** Only linking is left: the address has an account the page must sign in to first. */
  linkOnly: boolean;
  expiresAt: string;
}

/** A provider account linked to a user. */
export interface LinkedIdentity {
  providerId: string;
  kind: ProviderKind;
  subjectHash: string;
  email: string | null;
  linkedAt: string;
  lastUsedAt: string | null;
}

function toProvider(item: Record<string, unknown>): StoredSignInProvider {
  return {
    id: item.id as string,
    kind: item.kind as ProviderKind,
    displayName: item.displayName as string,
    clientId: item.clientId as string,
    secretCiphertext: item.secretCiphertext as string,
    apple: (item.apple as StoredSignInProvider['apple'] | undefined) ?? null,
    issuer: item.issuer as string,
    microsoftTenant: (item.microsoftTenant as string | null | undefined) ?? null,
    scopes: (item.scopes as string[] | undefined) ?? [],
    enabled: item.enabled === true,
    trustEmail: item.trustEmail === true,
    order: (item.order as number | undefined) ?? 0,
    endpoints: item.endpoints as ProviderEndpoints,
    secretSetAt: item.secretSetAt as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

function toIdentity(item: Record<string, unknown>): LinkedIdentity {
  return {
    providerId: item.providerId as string,
    kind: item.kind as ProviderKind,
    subjectHash: item.subjectHash as string,
    email: (item.email as string | null | undefined) ?? null,
    linkedAt: item.linkedAt as string,
    lastUsedAt: (item.lastUsedAt as string | null | undefined) ?? null,
  };
}

function toResult(item: Record<string, unknown>): ProviderResult {
  return {
    providerId: item.providerId as string,
    intent: item.intent as ProviderIntent,
    pageChallenge: item.pageChallenge as string,
    subjectHash: item.subjectHash as string,
    email: (item.email as string | null) ?? null,
    emailVerified: item.emailVerified === true,
    firstName: (item.firstName as string | null) ?? null,
    lastName: (item.lastName as string | null) ?? null,
    userId: (item.userId as string | null) ?? null,
    sessionId: (item.sessionId as string | null) ?? null,
    linkOnly: item.linkOnly === true,
    expiresAt: item.expiresAt as string,
  };
}

/**
 * Sign-in providers (SIGNIN_PROVIDER, in the tenant's partition, with the buttons' list kept on the merchant), their
 * flows and results (PROVIDER_FLOW, PROVIDER_RESULT: short-lived, each taken once), and the provider accounts linked
 * to users (IDENTITY beside the user, IDENTITY_OF: the tenant's claim that makes each provider account one user's).
 */
export function signInProviderRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async list(t: TenantRef): Promise<StoredSignInProvider[]> {
      const items = await queryAll(store, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.merchant(t).pk, ':prefix': signInProviderKeys.prefix },
        ConsistentRead: true,
      });
      return items.map(toProvider).sort((a, b) => a.order - b.order || a.createdAt.localeCompare(b.createdAt));
    },

    async get(t: TenantRef, providerId: string): Promise<StoredSignInProvider | null> {
      const item = await getItem(store, signInProviderKeys.provider(t, providerId));
      return item ? toProvider(item) : null;
    },

    /** A provider written: new (`readUpdatedAt` null), or over the version read (else its condition fails). */
    saveItem(t: TenantRef, provider: StoredSignInProvider, readUpdatedAt: string | null): TransactItem {
      return {
        Put: {
          TableName: tableName,
          Item: { ...signInProviderKeys.provider(t, provider.id), entity: 'SIGNIN_PROVIDER', ...provider },
          ConditionExpression: readUpdatedAt === null ? 'attribute_not_exists(pk)' : 'updatedAt = :read',
          ...(readUpdatedAt === null ? {} : { ExpressionAttributeValues: { ':read': readUpdatedAt } }),
        },
      };
    },

    /** A provider deleted, as read (else its condition fails). */
    deleteItem(t: TenantRef, provider: StoredSignInProvider): TransactItem {
      return {
        Delete: {
          TableName: tableName,
          Key: signInProviderKeys.provider(t, provider.id),
          ConditionExpression: 'updatedAt = :read',
          ExpressionAttributeValues: { ':read': provider.updatedAt },
        },
      };
    },

    /** The merchant's buttons, written over the version read: two admins' changes never lose one another's button. */
    buttonsItem(t: TenantRef, version: number, buttons: SignInProviderButton[]): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.merchant(t),
          UpdateExpression: 'SET signInProviders = :buttons, signInProvidersVersion = :next',
          // A tenant stored before providers has no version: that reads as 0.
          ConditionExpression:
            version === 0
              ? 'attribute_exists(pk) AND (attribute_not_exists(signInProvidersVersion) OR signInProvidersVersion = :version)'
              : 'signInProvidersVersion = :version',
          ExpressionAttributeValues: { ':buttons': buttons, ':next': version + 1, ':version': version },
        },
      };
    },

    async putFlow(t: TenantRef, stateHash: string, flow: ProviderFlow): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...signInProviderKeys.flow(t, stateHash),
            entity: 'PROVIDER_FLOW',
            ...flow,
            ttl: ttlAfter(flow.expiresAt),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    /** Takes a flow: deleted whatever follows, so each `state` comes back once. Null: unknown, used or expired. */
    async takeFlow(t: TenantRef, stateHash: string, now: Date): Promise<ProviderFlow | null> {
      const taken = await takeLiveItem(store, signInProviderKeys.flow(t, stateHash), now);
      if (!taken) return null;
      return {
        providerId: taken.providerId as string,
        intent: taken.intent as ProviderIntent,
        nonce: taken.nonce as string,
        pkceVerifier: taken.pkceVerifier as string,
        pageChallenge: taken.pageChallenge as string,
        returnTo: taken.returnTo as string,
        userId: (taken.userId as string | null) ?? null,
        sessionId: (taken.sessionId as string | null) ?? null,
        expiresAt: taken.expiresAt as string,
      };
    },

    async putResult(t: TenantRef, resultHash: string, result: ProviderResult): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...signInProviderKeys.result(t, resultHash),
            entity: 'PROVIDER_RESULT',
            ...result,
            ttl: ttlAfter(result.expiresAt),
          },
        }),
      );
    },

    /** Takes a result: deleted whatever follows (a page that must link gets it back). Null: unknown, used or expired. */
    async takeResult(t: TenantRef, resultHash: string, now: Date): Promise<ProviderResult | null> {
      const taken = await takeLiveItem(store, signInProviderKeys.result(t, resultHash), now);
      return taken ? toResult(taken) : null;
    },

    /** Reads a result without taking it (a proof that still needs its TOTP code). Null: unknown, used or expired. */
    async peekResult(t: TenantRef, resultHash: string, now: Date): Promise<ProviderResult | null> {
      const item = await getItem(store, signInProviderKeys.result(t, resultHash));
      return item && (item.expiresAt as string) > now.toISOString() ? toResult(item) : null;
    },

    /** The user a provider account is linked to, if any. */
    async linkedUserOf(t: TenantRef, providerId: string, subjectHash: string): Promise<string | null> {
      const item = await getItem(store, signInProviderKeys.identityClaim(t, providerId, subjectHash));
      return (item?.userId as string | undefined) ?? null;
    },

    async identities(t: TenantRef, userId: string): Promise<LinkedIdentity[]> {
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': keys.userPartition(t, userId),
            ':prefix': signInProviderKeys.identityPrefix,
          },
          ConsistentRead: true,
        }),
      );
      return (Items ?? []).map(toIdentity).sort((a, b) => a.linkedAt.localeCompare(b.linkedAt));
    },

    /**
     * The writes that link a provider account: the link beside the user (`identity` fails when the user already has
     * one of this provider) and the tenant's claim on the account (`claim` fails when another user holds it).
     */
    linkItems(t: TenantRef, userId: string, identity: LinkedIdentity) {
      return {
        identity: {
          Put: {
            TableName: tableName,
            Item: { ...signInProviderKeys.identity(t, userId, identity.providerId), entity: 'IDENTITY', ...identity },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        } satisfies TransactItem,
        claim: {
          Put: {
            TableName: tableName,
            Item: {
              ...signInProviderKeys.identityClaim(t, identity.providerId, identity.subjectHash),
              entity: 'IDENTITY_OF',
              userId,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        } satisfies TransactItem,
      };
    },

    /** The writes that unlink (`identity` fails when it is already gone). */
    unlinkItems(t: TenantRef, userId: string, identity: LinkedIdentity) {
      return {
        identity: {
          Delete: {
            TableName: tableName,
            Key: signInProviderKeys.identity(t, userId, identity.providerId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        } satisfies TransactItem,
        claim: {
          Delete: {
            TableName: tableName,
            Key: signInProviderKeys.identityClaim(t, identity.providerId, identity.subjectHash),
            ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
            ExpressionAttributeValues: { ':userId': userId },
          },
        } satisfies TransactItem,
      };
    },

    /**
     * A sign-in's use of a link: when, and the address the provider gave now. A plain write (one unit; in the session's
     * transaction it would bill two), and only while the link exists.
     */
    async noteUse(t: TenantRef, userId: string, providerId: string, email: string | null, now: Date): Promise<void> {
      await conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: signInProviderKeys.identity(t, userId, providerId),
            UpdateExpression: 'SET lastUsedAt = :now, email = :email',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':now': now.toISOString(), ':email': email },
          }),
        ),
      );
    },
  };
}
