import { timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (or their digests) are the same bytes, compared in constant time: the answer's timing says
 * nothing about how many leading bytes matched. Different lengths answer false (timingSafeEqual would throw).
 */
export function sameSecret(expected: Uint8Array, actual: Uint8Array): boolean {
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
