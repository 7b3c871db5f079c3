/** Stored attributes that hold a hash, a secret or a ciphertext: no index read may carry them. */
export const SECRET_ATTRIBUTES = [
  'passwordHash',
  'totpSecret',
  'totpPendingSecret',
  'backupCodes',
  'totpPendingBackupCodes',
  'codeHash',
  'secretHash',
  'encryptedPrivateKey',
] as const;
