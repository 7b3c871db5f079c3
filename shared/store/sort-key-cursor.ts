import { failField } from '../errors.ts';

/**
 * A page's opaque cursor: the sort key of its last item, and only that; the partition is always the caller's, never
 * the cursor's, so a cursor cannot reach another user's or tenant's items.
 */
export function encodeSortKeyCursor(sortKey: string): string {
  return Buffer.from(JSON.stringify({ sk: sortKey }), 'utf8').toString('base64url');
}

/** The sort key a cursor carries, when it has the shape of the page's keys (`shape`); else 400 on `cursor`. */
export function decodeSortKeyCursor(cursor: string, shape: RegExp): string {
  try {
    const { sk } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { sk?: unknown };
    if (typeof sk !== 'string' || !shape.test(sk)) throw new Error('bad cursor');
    return sk;
  } catch {
    throw failField('cursor', 'is not valid');
  }
}
