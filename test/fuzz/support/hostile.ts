import fc from 'fast-check';
import { deepNest, Obj, Raw, type Json } from './json-text.js';
import { MAX_PATH_PARAMETER_LENGTH } from '../../../src/app.js';

/** The key a successful prototype pollution would leave on Object.prototype. */
export const POLLUTION_MARK = 'fuzzPolluted';

export const nanLikeStrings = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '+0',
  '1e309',
  '-1e309',
  '1e-400',
  '0x1F',
  '0b11',
  '1_000',
  ' 1',
  '1 ',
  '01',
  '.5',
  '5.',
  '+5',
  '1e3',
  '9007199254740993',
  '99999999999999999999',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '',
  ' ',
  '\t',
  '\n',
] as const;

export const hostileDates = [
  '2024-13-45T99:99:99Z',
  '0000-00-00T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00Z',
  '2024-01-01T00:00:00',
  '2024-01-01',
  '9999-12-31T23:59:59Z',
  '0001-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-01-01T00:00:00+99:99',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:59:60Z',
  '2100-01-01T00:00:00Z',
  '2024-01-01T00:00:00.123456789Z',
  '2024-01-01t00:00:00z',
  '2024-01-01 00:00:00Z',
  'now',
  'yesterday',
] as const;

const injections = [
  "' OR 1=1 --",
  '"; drop table experiments; --',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '..',
  '%00',
  'a\u0000b',
  '\u0000',
  '\\',
  '\\u0000',
  'ja\u0301',
  '\u202eevil',
  '\ufeff',
  '\u200b',
  'SELECT pg_sleep(10)',
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'hasOwnProperty',
] as const;

const longUnits = ['x', 'é', '😀', '👨‍👩‍👧‍👦', '\ud800', '\udfff', '𝕏', '\u0000', '\u202e', '中', 'a\u0301'] as const;
const longLengths = [65, 129, 201, 257, 1_000, 5_000, 20_000, 200_000] as const;

/** Very long strings of awkward units: emoji, lone surrogates, combining marks, NUL, RTL override. */
export const longString = fc
  .tuple(fc.constantFrom(...longUnits), fc.constantFrom(...longLengths))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

/** Short strings of any code unit, lone surrogates included. */
export const anyShortString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ maxLength: 24 }),
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nanLikeStrings) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileDates) },
  { weight: 2, arbitrary: fc.constantFrom(...injections) },
  { weight: 2, arbitrary: longString },
  { weight: 3, arbitrary: anyShortString },
);

export const hostileNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    1.5,
    -0.5,
    2 ** 31,
    2 ** 32,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e21,
    1e-7,
    10_001,
    86_400_001,
    5.000001,
    1000,
    1001,
    200,
    201,
    Infinity,
    -Infinity,
  ),
  fc.double({ noNaN: true }),
  fc.integer(),
  fc
    .constantFrom('1e309', '-1e309', '-0', '1e-400', '123456789012345678901234567890', '1E+2', '1.0', '-0.0', '5e-324')
    .map((t) => new Raw(t)),
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
      '',
      ' ',
      '$gt',
      '$where',
      '$or',
      'a.b',
      'a/b',
      '~0',
      '~1',
      'null',
      POLLUTION_MARK,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('k'.repeat(300), '😀'.repeat(100), '\ud800', 'x'.repeat(70)) },
  { weight: 2, arbitrary: anyShortString },
);

/** Objects that would pollute a prototype if merged naively. */
export const poisonObject: fc.Arbitrary<Json> = fc.constantFrom(
  new Obj([['__proto__', new Obj([[POLLUTION_MARK, true]])]]),
  new Obj([['constructor', new Obj([['prototype', new Obj([[POLLUTION_MARK, true]])]])]]),
  new Obj([['prototype', new Obj([[POLLUTION_MARK, true]])]]),
  new Obj([
    [
      '__proto__',
      new Obj([
        ['toString', 1],
        ['valueOf', 'x'],
        ['hasOwnProperty', null],
      ]),
    ],
  ]),
  new Obj([['__proto__', null]]),
  new Obj([['__proto__', [1, 2]]]),
);

export const deepValue: fc.Arbitrary<Json> = fc
  .tuple(
    fc.constantFrom(3, 4, 10, 33, 100, 257, 400, 1_000, 5_000),
    fc.constantFrom<'object' | 'array' | 'mixed'>('object', 'array', 'mixed'),
  )
  .map(([depth, kind]) => deepNest(depth, kind));

const scalar: fc.Arbitrary<Json> = fc.oneof(hostileNumber, hostileString, fc.boolean(), fc.constant(null));

/** Any hostile value: wrong types, NaN-like strings, huge numbers, long unicode, deep nesting, poison keys. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom<Json>([], new Obj([])) },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.array(fc.tuple(hostileKey, scalar), { maxLength: 3 }).map((entries) => new Obj(entries)) },
  { weight: 2, arbitrary: poisonObject },
  { weight: 2, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.constantFrom(3_000, 20_000).map((n) => new Raw(`[${'0,'.repeat(n - 1)}0]`)) },
);

/** A whole body that is not a valid request: malformed JSON, the wrong kind of JSON, junk bytes. */
export const malformedBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '"x"',
    '0',
    '-0',
    'true',
    '1e309',
    '{',
    '}',
    '{"a":',
    '}{',
    '{"a":1}{"b":2}',
    '[1,]',
    '{"a":1,}',
    "{'a':1}",
    '{a:1}',
    'NaN',
    'Infinity',
    '\u0000',
    '\ufeff{}',
    '{"a":"\\ud800"}',
    '{"a":"\\x"}',
    '{"a":01}',
    '{"a":.5}',
    '{"__proto__":{"fuzzPolluted":true}}',
    '{"constructor":{"prototype":{"fuzzPolluted":true}}}',
    '{"a":1,"a":2,"__proto__":[],"__proto__":{}}',
    '[{"__proto__":{"fuzzPolluted":1}}]',
    'undefined',
    '<xml/>',
    'a=1&b=2',
    '\n\n\n',
    '{"a":"\u0000"}',
    '/* comment */ {}',
    '{"a":1} // trailing',
  ),
  fc.constantFrom(deepNest(10_000, 'array').text, deepNest(10_000, 'object').text, '['.repeat(100_000), '{"a":'.repeat(50_000)),
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
    Buffer.from('{"sessionId":"\xff\xfe"}', 'latin1'),
    Buffer.from([0xc0, 0xae, 0xed, 0xa0, 0x80]),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Path junk that still decodes: dot segments, encoded slashes, NUL, CRLF, template syntax. */
const decodableSegments = [
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%2f..%2f',
  '%00',
  ';',
  '~',
  '*',
  "'",
  '%22',
  '%27',
  '%3C%3E',
  '%25',
  '%5C',
  '%2e',
  '%20',
  '+',
  '%0A',
  '%0D%0A',
  'a%00b',
  ':id',
  '{id}',
  '%7Bid%7D',
  '%EF%BF%BD',
  '%F0%9F%98%80',
] as const;

/** Not valid percent-encoded UTF-8: the router itself refuses these, before any route runs. */
export const badEncodings = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%F4%90%80%80', '%FF', '%C0%AE', 'a%', '%%', '%G0', '%u0041'] as const;

const rawSegments = [...decodableSegments, ...badEncodings] as const;

/** Percent-encodes a string's UTF-8 bytes (lone surrogates become U+FFFD, as a client's encoder would send them). */
export function pctEncode(s: string): string {
  return encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));
}

/** The router refuses path parameters longer than this (maxParamLength) before any route runs. */
export const ROUTER_MAX_PARAM_LENGTH = MAX_PATH_PARAMETER_LENGTH;

/** Percent-encodes, shortening the text until the parameter fits the router's limit. */
export function pctEncodeParam(s: string): string {
  let text = s;
  let encoded = pctEncode(text);
  while (encoded.length > ROUTER_MAX_PARAM_LENGTH) {
    text = text.slice(0, Math.floor(text.length * 0.7));
    encoded = pctEncode(text);
  }
  return encoded;
}

/** A hostile path parameter, already in URL form, that gets past the router to the route. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...decodableSegments) },
  { weight: 3, arbitrary: hostileString.map(pctEncodeParam) },
  { weight: 1, arbitrary: fc.constantFrom(64, 65, ROUTER_MAX_PARAM_LENGTH).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...decodableSegments), { minLength: 2, maxLength: 5 }).map((parts) => parts.join('')) },
);

/** A path parameter the router refuses: bad percent-encoding, or longer than maxParamLength. */
export const routerRejectedSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...badEncodings),
  fc.tuple(fc.constantFrom(...decodableSegments), fc.constantFrom(...badEncodings)).map(([a, b]) => `${a}${b}`),
  fc.constantFrom(ROUTER_MAX_PARAM_LENGTH + 1, 10_000, 100_000).map((n) => 'a'.repeat(n)),
  longString.map(pctEncode).filter((s) => s.length > ROUTER_MAX_PARAM_LENGTH),
);

/** A hostile query-string value, already in URL form. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '-1',
      '0',
      '-0',
      '1.5',
      '1e3',
      '1e309',
      'NaN',
      'Infinity',
      '99999999999999999999',
      '2147483648',
      '',
      'true',
      'null',
      '0x10',
      ' 5',
      '5%20',
    ),
  },
  { weight: 2, arbitrary: hostileString.map(pctEncode) },
  { weight: 1, arbitrary: fc.constantFrom(...rawSegments) },
  { weight: 2, arbitrary: badCursor() },
);

function cursorOf(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Cursors that decode but do not name a row, and text that does not decode at all. */
export function badCursor(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      cursorOf({ k: 'abc' }),
      cursorOf({ k: '1.x' }),
      cursorOf({ k: '.x' }),
      cursorOf({ k: '99999999999999999999.x' }),
      cursorOf({ k: '-1.x' }),
      cursorOf({ k: 'NaN.x' }),
      cursorOf({ k: 'Infinity' }),
      cursorOf({ k: '1e309' }),
      cursorOf({ k: '9007199254740993' }),
      cursorOf({ k: '' }),
      cursorOf({ k: 1 }),
      cursorOf({ k: null }),
      cursorOf({ k: 'x'.repeat(129) }),
      cursorOf({ k: ['a'] }),
      cursorOf({}),
      cursorOf([]),
      cursorOf(null),
      cursorOf('k'),
      cursorOf({ __proto__: { k: 'a' } }),
      Buffer.from('{"__proto__":{"k":"1.a"}}').toString('base64url'),
      Buffer.from('not json').toString('base64url'),
      '!!!',
      '====',
      'a'.repeat(201),
      '%FF',
      cursorOf({ k: '1.\ud800' }),
      cursorOf({ k: '0.\u0000' }),
    ),
    anyShortString.map((s) => cursorOf({ k: s })),
    anyShortString.map(pctEncode),
  );
}
