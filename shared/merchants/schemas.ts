import * as v from 'valibot';
import { DefaultLanguage, DiscoveryResponse, HexColour, LoginMode, Origin, SignupMode } from '../tenancy/schemas.ts';

/** MerchantResponse: discovery's public view plus id, first admin, origins and times. */
export const MerchantResponse = v.object({
  id: v.string(),
  ...DiscoveryResponse.entries,
  /** The first admin, made with the tenant. */
  adminUserId: v.string(),
  allowedOrigins: v.array(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type MerchantResponse = v.InferOutput<typeof MerchantResponse>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Logos are shown by browsers: an absolute http(s) URL (a `javascript:` or `data:` URL is refused). */
const LogoUrl = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.check(isHttpUrl, 'must be an http or https URL'),
);

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A policy page the hosted pages link to: an absolute https URL, like a logo's but never plain http. */
const PolicyUrl = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.check(isHttpsUrl, 'must be an https URL'),
);

/** At most 20, as the tenant CLI allows; duplicates are dropped by the service (a set, stored in the order given). */
export const AllowedOrigins = v.pipe(
  v.array(Origin, 'must be an array of origins'),
  v.maxLength(20, 'at most 20 origins'),
);

/**
 * UpdateMerchantRequest: every field optional; `null` clears the logo, the
 * colours and the policy links (the dark pair's null is derived from the light pair), and restores the TOTP switches to their default (allowed). Anything else (id, app, mid, publicApiKey, subdomain, timestamps) is
 * refused: they name the tenant and are the operator's, not an admin's, to change.
 */
export const UpdateMerchantRequest = v.strictObject({
  name: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.minLength(1, 'is required'),
      v.maxLength(128, 'must be at most 128 characters'),
    ),
  ),
  logoUrl: v.optional(v.nullable(LogoUrl)),
  primaryColor: v.optional(v.nullable(HexColour)),
  secondaryColor: v.optional(v.nullable(HexColour)),
  darkPrimaryColor: v.optional(v.nullable(HexColour)),
  darkSecondaryColor: v.optional(v.nullable(HexColour)),
  privacyPolicyUrl: v.optional(v.nullable(PolicyUrl)),
  termsUrl: v.optional(v.nullable(PolicyUrl)),
  defaultLanguage: v.optional(DefaultLanguage),
  loginMode: v.optional(LoginMode),
  signupMode: v.optional(SignupMode),
  /** `null` restores the default, allowed (the brief's rule is "not false"): answered as `true`. */
  totpAllowed: v.optional(v.nullable(v.boolean('must be true, false or null'))),
  allowUserDisableTotp: v.optional(v.nullable(v.boolean('must be true, false or null'))),
  /** Passkeys (sign-in and the account page's list); `null` restores the default, on. */
  passkeysAllowed: v.optional(v.nullable(v.boolean('must be true, false or null'))),
  allowedOrigins: v.optional(AllowedOrigins),
});
export type UpdateMerchantRequest = v.InferOutput<typeof UpdateMerchantRequest>;

/** Any string: an id that is not the caller's merchant is 404, never a validation error that tells ids apart. */
export const MerchantIdParams = v.object({ id: v.string() });
export const ApiKeyIdParams = v.object({ id: v.string(), keyId: v.string() });

/** An API key as listed: never the key, its secret or its hash. */
export const ApiKeyResponse = v.object({
  keyId: v.string(),
  /** The key's first characters (`sk_key_…`), to tell keys apart; nothing of the secret. */
  keyPrefix: v.string(),
  label: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
  /** Who made it: a user id (or `apikey:<keyId>` for keys made by keys before they no longer could). */
  createdBy: v.string(),
});
export type ApiKeyResponse = v.InferOutput<typeof ApiKeyResponse>;

export const CreateApiKeyRequest = v.strictObject({
  label: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'is required'),
    v.maxLength(64, 'must be at most 64 characters'),
  ),
});

/** The new key, whole: shown this once (only a hash of its secret is stored). */
export const GenerateApiKeyResponse = v.object({
  keyId: v.string(),
  /** The whole key (`sk_key_<id>_<secret>`), for the `X-Api-Key` header. */
  apiKey: v.string(),
  keyPrefix: v.string(),
  label: v.string(),
  createdAt: v.string(),
});
export type GenerateApiKeyResponse = v.InferOutput<typeof GenerateApiKeyResponse>;
