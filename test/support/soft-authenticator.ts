import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software (ES256, attestation `none`), for the API tests that must craft what no
 * browser sends: another origin or RP ID in the signed data, a counter going backwards, an answer replayed, a
 * credential of another tenant. The journeys use Chromium's own virtual authenticator; this only signs bytes the
 * way WebAuthn Level 3 lays them out (authenticator data, client data, the COSE key), so the server's library
 * checks real signatures.
 */
export interface SoftCredential {
  /** base64url */
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The user handle the credential was made for, base64url. */
  userHandle: string;
  rpId: string;
  counter: number;
  /** Backup eligible and backed up: a synced passkey (`multiDevice`). */
  synced: boolean;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter >>> 0);
  return out;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
    ]),
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): string {
  return b64url(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8'));
}

function flags(credential: SoftCredential, userVerified: boolean): number {
  return FLAG_UP | (userVerified ? FLAG_UV : 0) | (credential.synced ? FLAG_BE | FLAG_BS : 0);
}

export interface Ceremony {
  /** The challenge the options carried (base64url). */
  challenge: string;
  /** The origin the browser would put in the client data. */
  origin: string;
  /** The RP ID hashed into the authenticator data (the options' unless a test says otherwise). */
  rpId: string;
  userVerified?: boolean;
}

/**
 * A new credential for `userHandle` (base64url), answered as `PublicKeyCredential.toJSON()` would be; `credentialId`
 * makes it claim an id of its choosing (base64url), as a hostile authenticator could.
 */
export function register(ceremony: Ceremony & { userHandle: string; synced?: boolean; credentialId?: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const idBytes = ceremony.credentialId ? Buffer.from(ceremony.credentialId, 'base64url') : randomBytes(32);
  const credential: SoftCredential = {
    id: b64url(idBytes),
    privateKey,
    publicKey,
    userHandle: ceremony.userHandle,
    rpId: ceremony.rpId,
    counter: 0,
    synced: ceremony.synced ?? false,
  };
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(idBytes.length);
  const authData = Buffer.concat([
    sha256(ceremony.rpId),
    Buffer.from([flags(credential, ceremony.userVerified ?? true) | FLAG_AT]),
    counterBytes(0),
    Buffer.alloc(16), // AAGUID: none said
    idLength,
    idBytes,
    coseKey(publicKey),
  ]);
  const attestationObject = isoCBOR.encode(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', new Uint8Array(authData)],
    ]) as never,
  );
  const json = {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON: clientData('webauthn.create', ceremony.challenge, ceremony.origin),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  };
  return { credential, json };
}

/**
 * The credential's signed answer to a challenge; its counter moves on by one unless `counter` says what to report
 * (a copied key reports an old one).
 */
export function answer(credential: SoftCredential, ceremony: Ceremony & { counter?: number; userHandle?: string }) {
  const counter = ceremony.counter ?? credential.counter + 1;
  credential.counter = Math.max(credential.counter, counter);
  const authData = Buffer.concat([
    sha256(ceremony.rpId),
    Buffer.from([flags(credential, ceremony.userVerified ?? true)]),
    counterBytes(counter),
  ]);
  const clientDataJSON = clientData('webauthn.get', ceremony.challenge, ceremony.origin);
  const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), {
    key: credential.privateKey,
    dsaEncoding: 'der',
  });
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON,
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: ceremony.userHandle ?? credential.userHandle,
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  };
}
