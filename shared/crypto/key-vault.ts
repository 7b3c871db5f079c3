import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';

/**
 * Encryption of the secrets we must be able to read back (token-signing
 * private keys, TOTP secrets). On AWS a KMS key does it, so only the
 * functions granted kms:Decrypt can read them; locally an AES-256-GCM key
 * from the environment stands in. The `context` is bound to the ciphertext
 * (KMS encryption context, GCM additional data): a secret moved to another
 * item does not decrypt.
 */
export interface KeyVault {
  encrypt(plaintext: Uint8Array, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<Uint8Array>;
}

/**
 * What a context is for: its `purpose` key, which the IAM grants are conditioned on
 * (`kms:EncryptionContext:purpose`). `jwt-signing`: the private halves of the token-signing
 * keys (shared/tokens/signing-keys.ts); `totp`: users' TOTP secrets (shared/auth/totp.ts);
 * `refresh-mac`: the server key that derives refresh-token successors (shared/tokens/refresh-successor.ts);
 * `sign-in-provider`: the client secrets (and Apple keys) of tenants' sign-in providers (shared/sign-in-providers/);
 * `webhook`: the signing secrets of tenants' webhook endpoints (shared/webhooks/).
 */
export type VaultPurpose = 'jwt-signing' | 'totp' | 'refresh-mac' | 'sign-in-provider' | 'webhook';
export type VaultUse = 'encrypt' | 'decrypt';
/**
 * One permission of a function: a purpose and what it may do with it (`totp:decrypt`). A route
 * row lists its grants (`kms`); the CDK stack grants exactly kms:Encrypt / kms:Decrypt under the
 * matching purpose condition, and vaultLimitedTo refuses the rest where there is no IAM (locally).
 */
export type VaultGrant = `${VaultPurpose}:${VaultUse}`;

/**
 * The vault as a function with these grants sees it: an encrypt or decrypt whose context's
 * `purpose` is not granted for that use is refused, as KMS refuses it (AccessDeniedException)
 * under the IAM conditions the stack writes. Locally every handler shares one AES key, so this
 * is what makes a missing grant fail the tests instead of the first deployment.
 */
export function vaultLimitedTo(vault: KeyVault, grants: readonly VaultGrant[]): KeyVault {
  const allowed = new Set<string>(grants);
  const check = (use: VaultUse, context: Record<string, string>) => {
    const grant = `${context.purpose}:${use}`;
    if (!allowed.has(grant)) {
      throw new Error(`key vault: "${grant}" is not granted to this function (add it to its route's kms)`);
    }
  };
  return {
    async encrypt(plaintext, context) {
      check('encrypt', context);
      return vault.encrypt(plaintext, context);
    },
    async decrypt(ciphertext, context) {
      check('decrypt', context);
      return vault.decrypt(ciphertext, context);
    },
  };
}

/** Stable bytes for a context, whatever the key order. */
function contextBytes(context: Record<string, string>): Buffer {
  const sorted = Object.keys(context)
    .sort()
    .map((key) => [key, context[key]]);
  return Buffer.from(JSON.stringify(sorted), 'utf8');
}

/**
 * The KMS client module, imported on first use: every function builds a vault
 * but most never encrypt or decrypt, and importing the client costs tens of ms
 * of cold start (bench/RESULTS.md, cold init).
 */
let kmsModule: Promise<typeof import('@aws-sdk/client-kms')> | undefined;
const loadKms = () => {
  kmsModule ??= import('@aws-sdk/client-kms');
  return kmsModule;
};

export function kmsKeyVault(keyId: string, client?: KMSClient): KeyVault {
  let kmsClient: Promise<KMSClient> | undefined;
  const clientOf = () => {
    kmsClient ??= client ? Promise.resolve(client) : loadKms().then(({ KMSClient }) => new KMSClient({}));
    return kmsClient;
  };
  return {
    async encrypt(plaintext, context) {
      const [{ EncryptCommand }, client] = await Promise.all([loadKms(), clientOf()]);
      const { CiphertextBlob } = await client.send(
        new EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: context }),
      );
      if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
      return Buffer.from(CiphertextBlob).toString('base64');
    },
    async decrypt(ciphertext, context) {
      const [{ DecryptCommand }, client] = await Promise.all([loadKms(), clientOf()]);
      const { Plaintext } = await client.send(
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: Buffer.from(ciphertext, 'base64'),
          EncryptionContext: context,
        }),
      );
      if (!Plaintext) throw new Error('KMS returned no plaintext');
      return Plaintext;
    },
  };
}

const LOCAL_PREFIX = 'local1';

/** AES-256-GCM with a 32-byte key: the local stand-in for KMS. Format: `local1.<iv>.<tag>.<ciphertext>` (base64url). */
export function localKeyVault(key: Uint8Array): KeyVault {
  if (key.length !== 32) throw new Error('the local secrets key must be 32 bytes');
  return {
    async encrypt(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(contextBytes(context));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return [LOCAL_PREFIX, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    async decrypt(ciphertext, context) {
      const [prefix, iv, tag, body] = ciphertext.split('.');
      if (prefix !== LOCAL_PREFIX || !iv || !tag || body === undefined) throw new Error('not a local vault ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(contextBytes(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    },
  };
}
