import { describeDevice } from '../sessions/device.ts';
import { MAX_PASSKEY_NAME } from './schemas.ts';

/**
 * Passkey providers by AAGUID (the model id a passkey's registration names), for a passkey's default name. Those
 * that say none (all zeros, as most security keys with `attestation: none`) are named from the browser instead.
 */
const PROVIDERS: Readonly<Record<string, string>> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
  '50726f74-6f6e-5061-7373-50726f746f6e': 'Proton Pass',
  'fdb141b2-5d84-443e-8a35-4698c205a502': 'KeePassXC',
};

/**
 * The name a new passkey gets when its owner gives none: its provider's (by AAGUID) when known, else the browser
 * and system it was made in (`Chrome on Linux`), else `Passkey`.
 */
export function defaultPasskeyName(aaguid: string, userAgent: string): string {
  const provider = PROVIDERS[aaguid.toLowerCase()];
  if (provider) return provider;
  const { browser, os } = describeDevice(userAgent);
  const unversioned = (name: string | null) => name?.replace(/\s+[\d.]+$/, '') ?? null;
  const [b, o] = [unversioned(browser), unversioned(os)];
  if (b && o) return `${b} on ${o}`.slice(0, MAX_PASSKEY_NAME);
  return b ?? o ?? 'Passkey';
}
