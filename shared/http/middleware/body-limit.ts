import { fail } from '../../errors.ts';
import type { HttpRequest } from '../request-state.ts';

/** Bodies are at most 16 KiB (docs/http.md#validation-and-limits). */
export const MAX_BODY_BYTES = 16 * 1024;

export function bodyByteLength(body: string | undefined, isBase64Encoded: boolean): number {
  if (!body) return 0;
  return isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body, 'utf8');
}

export function checkBodySize(request: HttpRequest): void {
  const { body, isBase64Encoded } = request.event;
  if (bodyByteLength(body, isBase64Encoded) > MAX_BODY_BYTES) {
    throw fail('PAYLOAD_TOO_LARGE', `body is over ${MAX_BODY_BYTES} bytes`);
  }
}
