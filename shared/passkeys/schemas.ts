import * as v from 'valibot';
import { Email } from '../users/schemas.ts';

/** base64url text (no padding), at most `max` characters: what WebAuthn's JSON forms carry every binary value as. */
const Base64Url = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.regex(/^[A-Za-z0-9_-]+$/, 'must be base64url'),
  );

/** A credential id: at most 1023 bytes (WebAuthn), 1364 characters in base64url. */
const CredentialId = Base64Url(1364);

/** What the browser says of where the authenticator is; kept out of every decision. */
const Attachment = v.optional(v.nullable(v.string()));
/** Extension outputs: not used, passed as the browser gave them. */
const ExtensionResults = v.optional(v.record(v.string(), v.unknown()), {});

/**
 * A new passkey as the browser's `PublicKeyCredential.toJSON()` (or @simplewebauthn/browser's
 * startRegistration) gives it. Extra fields are dropped; what is checked is the attestation and client data.
 */
export const RegistrationCredential = v.object({
  id: CredentialId,
  rawId: CredentialId,
  type: v.literal('public-key', 'must be public-key'),
  response: v.object({
    clientDataJSON: Base64Url(4096),
    attestationObject: Base64Url(16384),
    transports: v.optional(v.array(v.pipe(v.string(), v.maxLength(32)))),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ExtensionResults,
});

/** A passkey's signed answer to a challenge, as `toJSON()` or startAuthentication gives it. */
export const AuthenticationCredential = v.object({
  id: CredentialId,
  rawId: CredentialId,
  type: v.literal('public-key', 'must be public-key'),
  response: v.object({
    clientDataJSON: Base64Url(4096),
    authenticatorData: Base64Url(4096),
    signature: Base64Url(2048),
    userHandle: v.optional(v.nullable(Base64Url(128))),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ExtensionResults,
});
export type AuthenticationCredential = v.InferOutput<typeof AuthenticationCredential>;

/** Longest passkey name: a label in a list, not a note. */
export const MAX_PASSKEY_NAME = 64;

const PasskeyName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'is required'),
  v.maxLength(MAX_PASSKEY_NAME, `must be at most ${MAX_PASSKEY_NAME} characters`),
  v.regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
);

/** POST /users/me/passkeys: the browser's answer to the registration options, and a name if the user gave one. */
export const RegisterPasskeyRequest = v.strictObject({
  credential: RegistrationCredential,
  name: v.optional(PasskeyName),
});
export type RegisterPasskeyRequest = v.InferOutput<typeof RegisterPasskeyRequest>;

export const RenamePasskeyRequest = v.strictObject({ name: PasskeyName });

/** POST /auth/passkeys/options: with an address, only that account's passkeys can answer (nothing is looked up). */
export const PasskeySignInOptionsRequest = v.strictObject({ email: v.optional(Email) });

/** POST /auth/passkeys/sign-in and /auth/reauthenticate/passkey. */
export const PasskeyAnswerRequest = v.strictObject({ credential: AuthenticationCredential });

const CredentialDescriptor = v.object({
  id: v.string(),
  type: v.string(),
  transports: v.optional(v.array(v.string())),
});

/**
 * What `navigator.credentials.create()` takes, in WebAuthn Level 3's JSON form
 * (`PublicKeyCredential.parseCreationOptionsFromJSON`, or @simplewebauthn/browser's startRegistration).
 */
export const PasskeyCreationOptions = v.object({
  rp: v.object({ id: v.optional(v.string()), name: v.string() }),
  user: v.object({ id: v.string(), name: v.string(), displayName: v.string() }),
  challenge: v.string(),
  pubKeyCredParams: v.array(v.object({ type: v.literal('public-key'), alg: v.number() })),
  timeout: v.optional(v.number()),
  excludeCredentials: v.optional(v.array(CredentialDescriptor)),
  authenticatorSelection: v.optional(
    v.object({
      authenticatorAttachment: v.optional(v.string()),
      residentKey: v.optional(v.string()),
      requireResidentKey: v.optional(v.boolean()),
      userVerification: v.optional(v.string()),
    }),
  ),
  hints: v.optional(v.array(v.string())),
  attestation: v.optional(v.string()),
});

/** What `navigator.credentials.get()` takes, in the same JSON form (`parseRequestOptionsFromJSON`, startAuthentication). */
export const PasskeyRequestOptions = v.object({
  challenge: v.string(),
  timeout: v.optional(v.number()),
  rpId: v.optional(v.string()),
  allowCredentials: v.optional(v.array(CredentialDescriptor)),
  userVerification: v.optional(v.string()),
  hints: v.optional(v.array(v.string())),
});

export const PasskeyCreationOptionsResponse = v.object({ options: PasskeyCreationOptions });
export const PasskeyRequestOptionsResponse = v.object({ options: PasskeyRequestOptions });

export const PasskeyResponse = v.object({
  id: v.string(),
  name: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
  /** Kept on one device (`singleDevice`), or synced by its provider (`multiDevice`). */
  deviceType: v.picklist(['singleDevice', 'multiDevice']),
  backedUp: v.boolean(),
});
export type PasskeyResponse = v.InferOutput<typeof PasskeyResponse>;

/** Any string: an id that names no passkey of the user is 404, as sessions are. */
export const PasskeyIdParams = v.object({ passkeyId: v.string() });
export const UserPasskeyParams = v.object({ id: v.string(), passkeyId: v.string() });

/** GET /.well-known/webauthn of a tenant's host: the origins that may use its passkeys (Related Origin Requests). */
export const RelatedOriginsResponse = v.object({ origins: v.array(v.string()) });
