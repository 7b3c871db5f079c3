import { currentLanguage } from '../i18n/index.ts';
import { ApiError, CLIENT_ERROR_CODES, type IdentityClient } from '../sdk.ts';

/*
 * The sign-in provider routes, called the way the SDK calls the others: the tenant's headers, the session's access
 * token (one refresh on its 401), the pages' language, and the service's refusals as ApiError. The SDK has no
 * methods for them yet; this module moves to the SDK's `admin.signInProviders` (and `admin.users.identities`) once
 * they land there, and its types to the SDK's.
 */

export type ProviderKind = 'GOOGLE' | 'APPLE' | 'MICROSOFT' | 'GITHUB' | 'OIDC';

/** A provider as admins see it: never its secret or key, only when it was last set. */
export interface SignInProvider {
  id: string;
  kind: ProviderKind;
  displayName: string;
  clientId: string;
  /** The upstream issuer (GitHub: its OAuth 2 host). */
  issuer: string;
  microsoftTenant: string | null;
  scopes: string[];
  enabled: boolean;
  trustEmail: boolean;
  order: number;
  /** What the merchant registers at the provider: the tenant's callback on its hosted origin. */
  redirectUri: string;
  apple: { teamId: string; keyId: string } | null;
  secretSetAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface AppleKeyRequest {
  teamId: string;
  keyId: string;
  /** The .p8 file's PEM. */
  privateKey: string;
}

/** PATCH: what changes (the kind never does); a secret or Apple key given replaces the stored one. */
export interface UpdateSignInProviderRequest {
  displayName?: string;
  clientId?: string;
  clientSecret?: string;
  apple?: AppleKeyRequest;
  issuer?: string;
  microsoftTenant?: string;
  scopes?: string[];
  enabled?: boolean;
  trustEmail?: boolean;
  order?: number;
}

export interface CreateSignInProviderRequest extends UpdateSignInProviderRequest {
  kind: ProviderKind;
  clientId: string;
}

/** A provider account linked to a user. */
export interface LinkedIdentity {
  providerId: string;
  kind: ProviderKind;
  /** Null once the provider was deleted (the link then signs in no more). */
  displayName: string | null;
  email: string | null;
  linkedAt: string;
  lastUsedAt: string | null;
}

const seg = encodeURIComponent;

export function signInProvidersApi(client: IdentityClient) {
  const send = async (method: string, path: string, body: unknown, token: string | null) => {
    const headers: Record<string, string> = { accept: 'application/json', 'accept-language': currentLanguage() };
    const tenant = client.tenant;
    if (tenant) {
      headers['x-app-id'] = tenant.app;
      headers['x-mid-key'] = tenant.mid;
    }
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(`${location.origin}/api/v1${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.NETWORK_ERROR,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const token = client.getAccessToken();
    let response = await send(method, path, body, token);
    // An access token that has lapsed: one refresh, shared with the SDK's own callers, then once more.
    if (response.status === 401 && token !== null) {
      await client.refresh();
      response = await send(method, path, body, client.getAccessToken());
    }
    const text = await response.text();
    let answer: unknown;
    try {
      answer = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError({ status: response.status, code: CLIENT_ERROR_CODES.INVALID_RESPONSE });
    }
    if (response.ok) return answer as T;
    const problem = (answer ?? {}) as { code?: unknown; detail?: unknown; errors?: unknown };
    throw new ApiError({
      status: response.status,
      code: typeof problem.code === 'string' ? problem.code : CLIENT_ERROR_CODES.INVALID_RESPONSE,
      detail: typeof problem.detail === 'string' ? problem.detail : undefined,
      errors: Array.isArray(problem.errors)
        ? problem.errors.filter(
            (e): e is { path: string; message: string } =>
              typeof e?.path === 'string' && typeof e?.message === 'string',
          )
        : [],
    });
  };

  return {
    list: () => call<SignInProvider[]>('GET', '/sign-in-providers'),
    get: (id: string) => call<SignInProvider>('GET', `/sign-in-providers/${seg(id)}`),
    create: (body: CreateSignInProviderRequest) => call<SignInProvider>('POST', '/sign-in-providers', body),
    update: (id: string, body: UpdateSignInProviderRequest) =>
      call<SignInProvider>('PATCH', `/sign-in-providers/${seg(id)}`, body),
    remove: async (id: string) => {
      await call<void>('DELETE', `/sign-in-providers/${seg(id)}`);
    },
    /** GET /users/{id}/identities: the provider accounts linked to a user. */
    identities: (userId: string) => call<LinkedIdentity[]>('GET', `/users/${seg(userId)}/identities`),
  };
}
