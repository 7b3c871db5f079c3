/**
 * The browser's side of passkeys (WebAuthn): the service's options handed to the platform through
 * @simplewebauthn/browser (which turns WebAuthn's JSON forms into the platform's buffers and back, the same in every
 * browser), and the platform's refusals turned into ApiErrors with a code a page can act on.
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { ApiError, CLIENT_ERROR_CODES } from './errors.js';
import type { PasskeyCreationOptions as CreationOptions, PasskeyRequestOptions as RequestOptions } from './types.js';

/**
 * What this browser can do with passkeys: at all (a button: a phone or a security key may answer), in the e-mail
 * field's autofill, and with an authenticator of this device that verifies its user (where "make a passkey on this
 * device" makes sense to offer).
 */
export interface PasskeySupport {
  passkeys: boolean;
  autofill: boolean;
  platform: boolean;
}

export async function passkeySupport(): Promise<PasskeySupport> {
  if (!browserSupportsWebAuthn()) return { passkeys: false, autofill: false, platform: false };
  const [autofill, platform] = await Promise.all([
    browserSupportsWebAuthnAutofill(),
    platformAuthenticatorIsAvailable(),
  ]);
  return { passkeys: true, autofill, platform };
}

function clientError(code: string, detail: string, cause?: unknown): ApiError {
  const error = new ApiError({ status: 0, code, detail });
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause });
  return error;
}

/**
 * The platform's refusal as an ApiError: the person closed the prompt or it timed out, or another ceremony replaced
 * this one (PASSKEY_CANCELLED: nothing to report); no authenticator here can hold a passkey (PASSKEYS_UNSUPPORTED);
 * the authenticator already holds a passkey of this account (PASSKEY_ALREADY_ON_DEVICE); anything else
 * (PASSKEY_FAILED, with the platform's words as `detail`).
 */
function platformRefusal(error: unknown): ApiError {
  const name = error instanceof Error ? error.name : '';
  const code = error instanceof WebAuthnError ? error.code : undefined;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return clientError(CLIENT_ERROR_CODES.PASSKEY_CANCELLED, 'the passkey prompt was closed', error);
  }
  // No authenticator here that holds passkeys (a desktop without one, with no phone paired): as if no WebAuthn.
  if (name === 'NotSupportedError') {
    return clientError(CLIENT_ERROR_CODES.PASSKEYS_UNSUPPORTED, 'no authenticator here can use a passkey', error);
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return clientError(
      CLIENT_ERROR_CODES.PASSKEY_ALREADY_ON_DEVICE,
      'this authenticator already holds a passkey of this account',
      error,
    );
  }
  return clientError(CLIENT_ERROR_CODES.PASSKEY_FAILED, error instanceof Error ? error.message : String(error), error);
}

/** Refuses (PASSKEYS_UNSUPPORTED) where there is no WebAuthn, before anything is asked of the service. */
export function requireWebAuthn(): void {
  if (!browserSupportsWebAuthn()) {
    throw clientError(CLIENT_ERROR_CODES.PASSKEYS_UNSUPPORTED, 'this browser cannot use passkeys');
  }
}

/** navigator.credentials.create() with the service's options: the new credential, in WebAuthn's JSON form. */
export async function createCredential(options: CreationOptions): Promise<unknown> {
  requireWebAuthn();
  try {
    return await startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  } catch (error) {
    throw platformRefusal(error);
  }
}

/**
 * navigator.credentials.get() with the service's options: the passkey's signed answer. `autofill`: conditional
 * mediation, the browser offering the passkeys in an `autocomplete="username webauthn"` field; it waits until the
 * person picks one, or until `cancelCeremony` (another ceremony also ends it).
 */
export async function getAssertion(options: RequestOptions, autofill = false): Promise<unknown> {
  requireWebAuthn();
  try {
    return await startAuthentication({
      optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      useBrowserAutofill: autofill,
    });
  } catch (error) {
    throw platformRefusal(error);
  }
}

/** Ends the ceremony in progress (an autofill request waiting for a pick), which then rejects PASSKEY_CANCELLED. */
export function cancelCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}

/** The platform's timer (every browser and Node have one; the client's types name no platform): `fn` after `ms`. */
const timers = globalThis as unknown as {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** Calls `fn` after `ms` unless the returned function is called first. */
export function after(ms: number, fn: () => void): () => void {
  const handle = timers.setTimeout(fn, ms);
  return () => timers.clearTimeout(handle);
}
