import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * URLs the service itself fetches on a merchant's word (a sign-in provider's issuer and the endpoints its metadata
 * names): an admin must not be able to point our functions at addresses inside AWS or the local machine (SSRF).
 * https only, no credentials in the URL, and every address the host resolves to public. `allowLoopback` (local runs
 * only) lets plain http reach the machine itself, where the fake providers of the tests and the demo run.
 * Fetches made after this check follow no redirects (oauth4webapi's are `redirect: 'manual'`).
 */
export async function publicUrlProblem(value: string, options: { allowLoopback: boolean }): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry user information';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  if (options.allowLoopback && (loopbackName || isLoopback(host))) {
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must use http or https';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (loopbackName) return 'must name a public host';
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((found) => found.address);
  } catch {
    return 'names a host that does not resolve';
  }
  return addresses.length > 0 && addresses.every(isPublicAddress) ? null : 'must name a public host';
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^127\./.test(address);
}

/** IPv4 ranges no public service lives in: private, loopback, link-local (the metadata service), shared, reserved. */
const PRIVATE_V4: [number, number][] = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0000000, 24],
  [0xc0a80000, 16],
  [0xc6120000, 15],
  [0xe0000000, 3],
];

function v4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    const n = v4Number(address);
    return !PRIVATE_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
  }
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return isPublicAddress(mapped[1]);
  if (lower === '::' || lower === '::1') return false;
  // Unique local (fc00::/7), link-local (fe80::/10), multicast (ff00::/8), the AWS metadata service (fd00:ec2::254).
  return !/^(f[cd]|fe[89ab]|ff)/.test(lower);
}
