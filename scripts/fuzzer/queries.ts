/**
 * Query strings: the route's own parameters and foreign ones with hostile values, and PHP-bracket
 * bombs.
 */
import fc from 'fast-check'
import {
  BAD_LANGUAGES,
  BOOLEANS,
  DATES,
  LANGUAGE_CODES,
  NUMBERS,
  ORDERS,
  SQL_FRAGMENTS,
  STATUSES,
} from './hostileValues'
import { encode, keyArbitrary, textValue } from './values'

export function nestingBombs(): Record<string, string> {
  return {
    deep1000: `a${'[b]'.repeat(1000)}=1`,
    deepArray: `categories${'[]'.repeat(500)}=1`,
    emptyBrackets3000: 'a[]=&'.repeat(3000),
    emptyBrackets10000: 'a[]=&'.repeat(10_000),
    bigIndex: 'categories[999999999]=1&categories[0]=2',
    manyKeys: Array.from({ length: 2500 }, (_, n) => `k${n}=1`).join('&'),
    protoPollution: '__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][b]=1',
    mixedTypes: 'status=publish&status[]=draft&status[a]=x',
  }
}

/** Query-string bombs that stay under Node's 16 KB header limit (a longer URL is refused with 431 before the app). */
const QUERY_BOMBS = (() => {
  const bombs = nestingBombs()
  return [
    bombs.deep1000!,
    bombs.deepArray!,
    bombs.emptyBrackets3000!,
    bombs.bigIndex!,
    bombs.protoPollution!,
    bombs.mixedTypes!,
    Array.from({ length: 1200 }, (_, n) => `k${n}=1`).join('&'),
  ]
})()

export function pairsArbitrary(params: string[]): fc.Arbitrary<[string, string][]> {
  const generic = fc.tuple(keyArbitrary(params), textValue)
  const language = fc.tuple(
    fc.constant('i18n_language'),
    fc.constantFrom(...LANGUAGE_CODES, ...BAD_LANGUAGES),
  )
  const date = fc.tuple(
    fc.constantFrom(
      'start_date',
      'end_date',
      'starts_before',
      'starts_after',
      'ends_before',
      'ends_after',
      'date',
      'date_utc',
    ),
    fc.constantFrom(...DATES),
  )
  const number = fc.tuple(
    fc.constantFrom(
      'page',
      'per_page',
      'include',
      'exclude',
      'venue',
      'organizer',
      'event',
      'post',
      'parent',
      'post_parent',
      'geoloc_lat',
      'geoloc_lng',
      'geoloc_radius',
      'id',
    ),
    fc.constantFrom(...NUMBERS),
  )
  const status = fc.tuple(
    fc.constantFrom(
      'status',
      'order',
      'orderby',
      'context',
      'featured',
      'hide_empty',
      'strict_dates',
      'has_events',
      'geoloc',
      'ticketed',
    ),
    fc.constantFrom(...STATUSES, ...ORDERS, ...BOOLEANS, 'edit', 'view'),
  )
  const sql = fc.tuple(
    fc.constantFrom(
      'order',
      'orderby',
      'search',
      'slug',
      'categories',
      'tags',
      'status',
      'include',
      'exclude',
    ),
    fc.constantFrom(...SQL_FRAGMENTS),
  )
  return fc.array(
    fc.oneof({ weight: 5, arbitrary: generic }, language, date, number, status, sql),
    { maxLength: 8 },
  )
}

export function encodePairs(pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')
}

export function queryArbitrary(params: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: pairsArbitrary(params).map(encodePairs) },
    { weight: 1, arbitrary: fc.constantFrom(...QUERY_BOMBS) },
    // Raw, unencoded garbage: fetch percent-encodes what a URL cannot hold; `%` sequences stay malformed.
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary-ascii', maxLength: 60 })
        .map((text) => text.replace(/#/g, '%23')),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%%',
        'a=%zz',
        'a=%E0%A4%A',
        '=',
        '&&&',
        '==',
        'a==b',
        '?',
        'search=%00',
        'search=a%0d%0aSet-Cookie:%20injected=1',
      ),
    },
  )
}
