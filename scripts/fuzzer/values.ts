/** Arbitraries of hostile text, numbers, keys and JSON values. */
import fc from 'fast-check'
import {
  BAD_LANGUAGES,
  BOOLEANS,
  CRLF_TEXT,
  DATES,
  HOSTILE_KEYS,
  IMAGE_URLS,
  JSON_FRAGMENTS,
  LANGUAGE_CODES,
  NESTING_KEYS,
  NUMBERS,
  ORDERS,
  SQL_FRAGMENTS,
  STATUSES,
  UNICODE_TEXT,
} from './hostileValues'
import { ALL_PARAMS } from './routes'

export function wellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  )
}

export function encode(text: string): string {
  return encodeURIComponent(wellFormed(text))
}

export const textValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_FRAGMENTS) },
  { weight: 2, arbitrary: fc.constantFrom(...JSON_FRAGMENTS) },
  { weight: 3, arbitrary: fc.constantFrom(...UNICODE_TEXT) },
  { weight: 1, arbitrary: fc.constantFrom(...CRLF_TEXT) },
  { weight: 3, arbitrary: fc.constantFrom(...DATES) },
  { weight: 3, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom(...LANGUAGE_CODES, ...BAD_LANGUAGES) },
  { weight: 1, arbitrary: fc.constantFrom(...STATUSES, ...ORDERS, ...BOOLEANS) },
  { weight: 1, arbitrary: fc.constantFrom(...IMAGE_URLS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String) },
)

/** Numbers that cannot be ids: fractions, negatives, beyond PostgreSQL's integer, beyond doubles' integers. */
export const BAD_NUMBER: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1.5,
    2_147_483_648,
    -2_147_483_649,
    2 ** 53,
    1e20,
    6.6e65,
    1e308,
    -0,
    '2147483648',
    '1e3',
    '1.5',
    '-1',
    '99999999999999999999',
  ),
  fc.double({ noNaN: true }),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
)

/** JSON scalars: the text values plus real numbers, booleans and null. */
const jsonScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: textValue },
  { weight: 2, arbitrary: fc.integer() },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      0,
      -1,
      1,
      2_147_483_647,
      2_147_483_648,
      Number.MAX_SAFE_INTEGER,
      1e308,
      -1e308,
      1.5,
      1e-7,
    ),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
)

export function keyArbitrary(params: string[]): fc.Arbitrary<string> {
  const names = params.length ? params : ALL_PARAMS
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: fc.constantFrom(...ALL_PARAMS) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...names), fc.constantFrom(...NESTING_KEYS))
        .map(([name, suffix]) => name + suffix),
    },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  )
}

export function jsonValue(params: string[]): fc.Arbitrary<unknown> {
  const key = keyArbitrary(params)
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      { weight: 6, arbitrary: jsonScalar },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 5 }) },
    ),
  })).value
}
