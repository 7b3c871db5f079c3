import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { localKeyVault, vaultLimitedTo } from '#shared/crypto/key-vault.ts';

describe('vaultLimitedTo (what a function granted these kms purposes may do, as IAM enforces it on AWS)', () => {
  const vault = localKeyVault(randomBytes(32));
  const secret = Buffer.from('JBSWY3DPEHPK3PXP');
  const totp = { purpose: 'totp', userId: 'usr_1' };
  const signing = { purpose: 'jwt-signing', kid: 'key_1' };

  it('encrypts and decrypts as the vault does for a granted purpose and use', async () => {
    const limited = vaultLimitedTo(vault, ['totp:encrypt', 'totp:decrypt']);
    const sealed = await limited.encrypt(secret, totp);
    expect(Buffer.from(await limited.decrypt(sealed, totp))).toEqual(secret);
    // The same ciphertext format: the unlimited vault reads it, and the other way round.
    expect(Buffer.from(await vault.decrypt(sealed, totp))).toEqual(secret);
    expect(Buffer.from(await limited.decrypt(await vault.encrypt(secret, totp), totp))).toEqual(secret);
  });

  it('refuses a use not granted for the purpose: a TOTP enrolment encrypts but cannot decrypt', async () => {
    const enrol = vaultLimitedTo(vault, ['totp:encrypt']);
    const sealed = await enrol.encrypt(secret, totp);
    await expect(enrol.decrypt(sealed, totp)).rejects.toThrow(/"totp:decrypt" is not granted/);
  });

  it('refuses another purpose: a token signer cannot read TOTP secrets, nor a TOTP check the signing keys', async () => {
    const signer = vaultLimitedTo(vault, ['jwt-signing:encrypt', 'jwt-signing:decrypt']);
    const checker = vaultLimitedTo(vault, ['totp:decrypt']);
    const sealedTotp = await vault.encrypt(secret, totp);
    const sealedKey = await vault.encrypt(secret, signing);
    await expect(signer.decrypt(sealedTotp, totp)).rejects.toThrow(/"totp:decrypt" is not granted/);
    await expect(checker.decrypt(sealedKey, signing)).rejects.toThrow(/"jwt-signing:decrypt" is not granted/);
    await expect(checker.encrypt(secret, signing)).rejects.toThrow(/"jwt-signing:encrypt" is not granted/);
    expect(Buffer.from(await signer.decrypt(sealedKey, signing))).toEqual(secret);
  });

  it('refuses everything with no grants, and a context without a purpose', async () => {
    const none = vaultLimitedTo(vault, []);
    await expect(none.encrypt(secret, totp)).rejects.toThrow(/not granted/);
    const all = vaultLimitedTo(vault, ['totp:encrypt', 'totp:decrypt', 'jwt-signing:encrypt', 'jwt-signing:decrypt']);
    await expect(all.encrypt(secret, { userId: 'usr_1' })).rejects.toThrow(/"undefined:encrypt" is not granted/);
  });
});
