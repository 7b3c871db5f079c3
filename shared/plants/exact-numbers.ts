/**
 * JSON.parse rounds a number literal to the nearest double without a word:
 * `9007199254740990.5` becomes the integer 9007199254740990, and
 * `1.0000000000000001` becomes 1. Node 20 gives no access to the source of a
 * parsed value, so the check runs on the JSON text.
 */

/** A string (skipped whole, escapes included) or a number literal of a valid JSON text. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The integer a JSON number literal denotes exactly, or null when it denotes a fraction. */
function exactInteger(literal: string): bigint | null {
  const match = NUMBER.exec(literal);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = whole + fraction;
  // The value is digits × 10^scale.
  let scale = Number(exponent) - fraction.length;
  if (/^0+$/.test(digits)) return 0n;
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale++;
  }
  if (scale < 0) return null;
  // Only literals whose double is a finite integer get here (see below): the scale is bounded by the text.
  const value = BigInt(digits) * 10n ** BigInt(scale);
  return sign === '-' ? -value : value;
}

/**
 * The number literals of a valid JSON text that JSON.parse turns into an
 * integer they are not (a fraction rounded to an integer, or an integer
 * rounded to another). Literals that parse to a fraction are left to
 * validation, which refuses them where an integer is due.
 */
export function roundedIntegers(json: string): string[] {
  const rounded: string[] = [];
  for (const [token] of json.matchAll(TOKEN)) {
    if (token.startsWith('"')) continue;
    const parsed = Number(token);
    if (!Number.isInteger(parsed)) continue;
    if (exactInteger(token) !== BigInt(parsed)) rounded.push(token);
  }
  return rounded;
}
