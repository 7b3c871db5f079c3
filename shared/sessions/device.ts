// ua-parser-js 1.0.x, pinned: MIT. Its 2.x line is AGPL-3.0, so never upgrade
// past 1.x (test/unit/shared/sessions/device.test.ts checks the licence).
// Chosen over bowser (MIT too, also maintained) for size, the smaller of the two
// (bench/NOTES.md, "Numbers behind the code"). Only the two routes that list
// sessions and devices carry it: starting a session needs the fingerprint
// alone (./fingerprint.ts).
import UAParser from 'ua-parser-js';
import { deviceFingerprint, normaliseUserAgent } from './fingerprint.ts';

export interface DeviceDetails {
  /** Browser name and major version, such as `Chrome 131`; null when the agent is not a known browser. */
  browser: string | null;
  /** OS name and version, such as `macOS 14.6` or `Windows 10`; null when unknown. */
  os: string | null;
  /** 32 hex characters that stay the same for the same browser on the same machine. */
  fingerprint: string;
}

/** Longer names are garbage or an attack on whatever displays them. */
const MAX_NAME_LENGTH = 64;

const OS_NAMES: Record<string, string> = { 'Mac OS': 'macOS' };

function clean(value: string | undefined): string | undefined {
  // Drop control characters: these strings are stored and shown to users.
  const cleaned = value?.replace(/\p{Cc}/gu, '').trim();
  return cleaned ? cleaned.slice(0, MAX_NAME_LENGTH) : undefined;
}

function join(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  return version ? `${name} ${version}` : name;
}

/**
 * What a session list or a device list shows about a client, from its
 * User-Agent: `{ browser: 'Chrome 131', os: 'Windows 10', fingerprint }`.
 * An empty or unknown agent (curl, a script) gives nulls and still a
 * fingerprint.
 *
 * The fingerprint is ./fingerprint.ts's: a hash of the User-Agent, which is
 * what login stores (it needs no parser); names are derived when listing.
 */
export function describeDevice(userAgent: string): DeviceDetails {
  const raw = normaliseUserAgent(userAgent);
  const result = new UAParser(raw).getResult();
  const browserName = clean(result.browser.name);
  const browserMajor = clean(result.browser.version?.split('.')[0]);
  const osName = clean(result.os.name);
  // Two parts at most: `14.6.1` → `14.6`, as people say it.
  const osVersion = clean(result.os.version?.split('.').slice(0, 2).join('.'));
  const os = osName ? (OS_NAMES[osName] ?? osName) : undefined;

  return { browser: join(browserName, browserMajor), os: join(os, osVersion), fingerprint: deviceFingerprint(raw) };
}
