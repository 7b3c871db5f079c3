import { describe, expect, it } from 'vitest';
import { roundedIntegers } from '#shared/plants/exact-numbers.ts';

describe('roundedIntegers', () => {
  it('finds nothing in integers a double holds exactly, however they are written', () => {
    expect(roundedIntegers('{"id":9007199254740991,"b":-9007199254740991,"c":0,"d":-0}')).toEqual([]);
    expect(roundedIntegers('[1.0, 2e3, 2E+3, 25e-1, 1.50, 100e-2, 0.0e5, 1e22]')).toEqual([]);
  });

  it('finds integers JSON.parse rounds to another integer', () => {
    expect(roundedIntegers('{"id":9007199254740993}')).toEqual(['9007199254740993']);
    expect(roundedIntegers('{"id":-9007199254740993}')).toEqual(['-9007199254740993']);
    expect(roundedIntegers('[123456789012345678901234567890, 1e23]')).toEqual([
      '123456789012345678901234567890',
      '1e23',
    ]);
  });

  it('finds fractions JSON.parse rounds to an integer', () => {
    expect(roundedIntegers('{"id":9007199254740990.5}')).toEqual(['9007199254740990.5']);
    expect(roundedIntegers('{"id":1.0000000000000001}')).toEqual(['1.0000000000000001']);
    expect(roundedIntegers('{"id":1e-400}')).toEqual(['1e-400']);
  });

  it('leaves fractions that stay fractions to validation, and ignores numbers inside strings', () => {
    expect(roundedIntegers('{"id":1.5,"x":0.1}')).toEqual([]);
    expect(roundedIntegers('{"name":"9007199254740993 \\" 1.0000000000000001","id":1}')).toEqual([]);
  });

  it('ignores numbers too large for a double (they parse to Infinity, which validation refuses)', () => {
    expect(roundedIntegers('{"id":1e400}')).toEqual([]);
  });
});
