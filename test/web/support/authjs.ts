import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Auth.js (@auth/core 0.41), loaded without its type declarations: they import preact's JSX types, whose
 * `/// <reference lib="dom" />` adds the DOM library to the whole program, and `tsc -p tsconfig.json` then
 * refuses Node code that iterates fetch's `Headers` (test/support/oidc.ts, test/support/answer-recorder.ts) or
 * hands a fetch to openid-client. What the journeys use of it is typed here instead, from its documentation.
 */

/** The part of an `oidc` provider's options the journeys set (@auth/core/providers/oauth.d.ts, OIDCConfig). */
export interface AuthJsOidcProvider {
  id: string;
  name: string;
  type: 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string;
  checks?: ('pkce' | 'state' | 'nonce')[];
  /** Keyed by the `customFetch` symbol of the same module. */
  [key: symbol]: typeof fetch;
}

/** The part of AuthConfig the journeys set (@auth/core/index.d.ts). */
export interface AuthJsConfig {
  basePath: string;
  trustHost: boolean;
  secret: string;
  logger?: { error?(error: Error): void; warn?(code: string): void; debug?(message: string, metadata?: unknown): void };
  providers: AuthJsOidcProvider[];
}

export interface AuthJs {
  /** `Auth(request, config)`: one web Request in, its Response out. */
  Auth(request: Request, config: AuthJsConfig): Promise<Response>;
  /** The provider option that replaces the fetch Auth.js uses to reach the provider (discovery, token, userinfo). */
  customFetch: symbol;
}

const require = createRequire(import.meta.url);

/** `import { Auth, customFetch } from '@auth/core'`, typed as above. */
export async function loadAuthJs(): Promise<AuthJs> {
  return (await import(pathToFileURL(require.resolve('@auth/core')).href)) as AuthJs;
}
