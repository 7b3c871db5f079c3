import * as v from 'valibot';
import { type Clock, systemClock } from '../clock.ts';
import type { ServiceDeps } from '../http/request-state.ts';
import { type Logger, loggerAt, requestLogAt } from '../log.ts';
import { createStoreClient } from '../store/client.ts';
import { remoteJwksVerifier, type TokenVerifier } from '../tokens/resource-server.ts';
import { authorizerClaimsVerifier } from './authorizer-claims.ts';
import { type AllowedOrigins, identityOrigins, type PlantStore, plantStore } from './store.ts';

/**
 * The plant store's environment, checked once per cold start. Its names
 * differ from the identity's wherever the value does (the local gateway runs
 * both services in one process, with one process.env); ISSUER_URL means the
 * same in both: the identity base URL.
 */
const Env = v.object({
  PLANTS_TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  /** DynamoDB Local's URL; unset on AWS. */
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  AWS_REGION: v.optional(v.string()),
  /** The identity base URL: the `iss` of every token the plant store accepts. No default: whom to trust is never guessed. */
  ISSUER_URL: v.pipe(v.string(), v.url()),
  /** Where the issuer's public keys are; `<ISSUER_URL>/.well-known/jwks.json` unless set. */
  JWKS_URL: v.optional(v.pipe(v.string(), v.url())),
  /** This service's base URL, named in its OpenAPI document. */
  PLANTS_URL: v.optional(v.pipe(v.string(), v.url()), 'http://localhost:3001'),
  /**
   * The identity's table, as for the identity's functions: its ORIGIN items say which origins the
   * plant store answers CORS for. Set only on the functions that answer CORS (their IAM reads
   * those items and nothing else of the table).
   */
  TABLE_NAME: v.optional(v.pipe(v.string(), v.minLength(1))),
  /**
   * `true` on the functions behind an API Gateway JWT authorizer (the `plantsJwtIssuer` context): the bearer
   * check takes the caller from the authorizer's verified claims (authorizer-claims.ts) instead of verifying
   * the token against ISSUER_URL's keys. Unset (or `false`): the handler verifies.
   */
  PLANTS_JWT_AUTHORIZER: v.optional(v.picklist(['true', 'false']), 'false'),
  /** As the identity's (shared/deps.ts): `error` keeps each request's summary line out of the log. */
  LOG_LEVEL: v.optional(v.picklist(['info', 'error']), 'info'),
  /** As the identity's: the `service` dimension of the request metrics, the stack's name on AWS. */
  SERVICE_NAME: v.optional(v.pipe(v.string(), v.minLength(1)), 'local'),
});

export interface PlantConfig {
  issuerUrl: string;
  jwksUrl: string;
  plantsUrl: string;
  /** The function sits behind an API Gateway JWT authorizer, whose claims name the caller (PLANTS_JWT_AUTHORIZER). */
  behindJwtAuthorizer: boolean;
}

export interface PlantDeps extends ServiceDeps {
  /** Which service these deps serve: not the identity's (shared/http/handler.ts tells them apart by it). */
  readonly service: 'plants';
  config: PlantConfig;
  plants: PlantStore;
  /** The origins the identity's tenants allow (CORS). */
  origins: AllowedOrigins;
  /**
   * The resource-server bearer check, its key set cached for the life of the process; behind a JWT
   * authorizer, the authorizer's claims of the running request.
   */
  verifyToken: TokenVerifier;
  clock: Clock;
  log: Logger;
}

const noOrigins: AllowedOrigins = {
  anyTenantAllows: async () => {
    throw new Error('no TABLE_NAME (the identity table) is configured: this function answers no CORS');
  },
};

/** Builds the plant store's deps from the environment: its only reader of `process.env`. */
export function makePlantDeps(env: Record<string, string | undefined>): PlantDeps {
  const parsed = v.safeParse(Env, env);
  if (!parsed.success) {
    const fields = parsed.issues.map((issue) => v.getDotPath(issue) ?? '?').join(', ');
    throw new Error(`invalid environment: ${fields}`);
  }
  const e = parsed.output;
  const config: PlantConfig = {
    issuerUrl: e.ISSUER_URL,
    jwksUrl: e.JWKS_URL ?? `${e.ISSUER_URL}/.well-known/jwks.json`,
    plantsUrl: e.PLANTS_URL,
    behindJwtAuthorizer: e.PLANTS_JWT_AUTHORIZER === 'true',
  };
  const store = createStoreClient({
    tableName: e.PLANTS_TABLE_NAME,
    endpoint: e.DYNAMODB_ENDPOINT,
    region: e.AWS_REGION,
  });
  return {
    service: 'plants',
    config,
    plants: plantStore(store),
    // The identity's table on the same client: one connection pool, another table name.
    origins: e.TABLE_NAME ? identityOrigins({ doc: store.doc, tableName: e.TABLE_NAME }) : noOrigins,
    verifyToken: config.behindJwtAuthorizer
      ? authorizerClaimsVerifier()
      : remoteJwksVerifier({ issuerUrl: config.issuerUrl, jwksUrl: config.jwksUrl }),
    clock: systemClock,
    log: loggerAt(e.LOG_LEVEL),
    requestLog: requestLogAt(e.LOG_LEVEL, e.SERVICE_NAME),
  };
}

let cached: PlantDeps | undefined;

/** The deps of this process, built on first use (once per Lambda cold start). */
export function processPlantDeps(): PlantDeps {
  cached ??= makePlantDeps(process.env);
  return cached;
}
