import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { kmsKeyVault, localKeyVault } from '#shared/crypto/key-vault.ts';

describe('localKeyVault (AES-256-GCM)', () => {
  const vault = localKeyVault(randomBytes(32));
  const secret = Buffer.from('JBSWY3DPEHPK3PXP');

  it('round-trips a secret bound to its context, and never shows it in the ciphertext', async () => {
    const sealed = await vault.encrypt(secret, { purpose: 'totp', userId: 'usr_1' });
    expect(sealed).not.toContain(secret.toString());
    expect(Buffer.from(await vault.decrypt(sealed, { userId: 'usr_1', purpose: 'totp' }))).toEqual(secret);
  });

  it('refuses another context, a tampered ciphertext and another key', async () => {
    const sealed = await vault.encrypt(secret, { purpose: 'totp', userId: 'usr_1' });
    await expect(vault.decrypt(sealed, { purpose: 'totp', userId: 'usr_2' })).rejects.toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    await expect(
      vault.decrypt([...parts.slice(0, 3), body.toString('base64url')].join('.'), { purpose: 'totp', userId: 'usr_1' }),
    ).rejects.toThrow();
    await expect(
      localKeyVault(randomBytes(32)).decrypt(sealed, { purpose: 'totp', userId: 'usr_1' }),
    ).rejects.toThrow();
  });
});

describe('kmsKeyVault', () => {
  it('encrypts and decrypts through KMS with the key and the context, loading the KMS client on first use', async () => {
    const { DecryptCommand, EncryptCommand, KMSClient } = await import('@aws-sdk/client-kms');
    const { mockClient } = await import('aws-sdk-client-mock');
    const kms = mockClient(KMSClient);
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('sealed-by-kms') });
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('JBSWY3DPEHPK3PXP') });
    try {
      const vault = kmsKeyVault('alias/identity');
      const context = { purpose: 'totp', userId: 'usr_1' };
      const sealed = await vault.encrypt(Buffer.from('JBSWY3DPEHPK3PXP'), context);
      expect(Buffer.from(sealed, 'base64').toString()).toBe('sealed-by-kms');
      expect(Buffer.from(await vault.decrypt(sealed, context)).toString()).toBe('JBSWY3DPEHPK3PXP');
      expect(kms.commandCalls(EncryptCommand)[0]?.args[0].input).toMatchObject({
        KeyId: 'alias/identity',
        EncryptionContext: context,
      });
      expect(kms.commandCalls(DecryptCommand)[0]?.args[0].input).toMatchObject({
        KeyId: 'alias/identity',
        EncryptionContext: context,
      });
    } finally {
      kms.restore();
    }
  });
});
