import { mulberry32 } from '../../src/random/index.js';
/**
 * Deterministic unit ids for the reference tests: ASCII, UUID-like, emoji
 * (including ZWJ and skin-tone sequences), CJK, combining characters (NFC and
 * NFD spellings of the same text), lone surrogates and random UTF-16 code
 * units, shared by the assignment reference tests (test support: it is not
 * part of the build).
 */
export function generateUnitIds(count: number, seed = 20240601): string[] {
  const random = mulberry32(seed);
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const randomCodeUnits = (): string =>
    String.fromCharCode(...Array.from({ length: 1 + Math.floor(random() * 20) }, () => Math.floor(random() * 0x10000)));
  const makers: ReadonlyArray<(i: number) => string> = [
    (i) => `user-${i}`,
    () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
    (i) => `😀${i}👨‍👩‍👧‍👦👍🏽`,
    (i) => `用户${i}検索한국어`,
    (i) => (i % 2 === 0 ? `cafe\u0301-${i}` : `café-${i}`.normalize('NFC')),
    (i) => (i % 2 === 0 ? `\uD83D${i}` : `${i}\uDC00x`),
    () => randomCodeUnits(),
  ];
  return Array.from({ length: count }, (_, i) => {
    const make = makers[i % makers.length];
    if (make === undefined) throw new Error('unreachable');
    return make(i);
  });
}
