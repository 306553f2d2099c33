/**
 * Shared generators and checks of the namespace fuzzers: `tests/api/fuzz.test.ts` (a few thousand
 * requests inside `npm test`) and `scripts/fuzz.ts` (`npm run fuzz`, 100k requests). Nothing here
 * imports vitest, so that the script can use it outside a test run.
 *
 * A generated request is plain data (`FuzzRequest`), so fast-check can print, shrink and replay it
 * from a seed. Routes and methods come from the namespace's own route table (`ROUTES`), path
 * parameters are filled from pools of real ids and slugs (which the runner fills as it creates
 * fixtures) or with adversarial values, and query strings and bodies mix the route's own parameter
 * names with hostile keys and values: wrong types, huge numbers, unicode and RTL text, NUL bytes,
 * SQL and JSON fragments, PHP-bracket bombs, invalid dates, every language code and bad ones, random
 * content types, malformed JSON and multipart, and bodies of 10 MB.
 *
 * The rules every answer must follow (docs/api.md §11): no status ≥ 500; every 4xx is
 * `{ code, message, data: { status } }` with the HTTP status equal to `data.status`; no response sets
 * a cookie or grows a header out of a CR/LF in the input; a body over the limit is a 413; nothing
 * protected or unpublished reaches a caller who is not the administrator; and, checked by the runners
 * with a fingerprint of the database, a request that failed wrote nothing.
 */
import fc from 'fast-check'
import { randomUUID } from 'node:crypto'
import { RESOURCES, type ResourceKey } from '../src/calendar/resources'
import { LANGUAGES } from '../src/i18n/languages'
import { ROUTES } from '../src/rest/routes'

const NAMESPACE = '/api/cal/events/v1'

// ---------------------------------------------------------------------------------------------------
// Routes

/** One method on one path of the route table, with the parameter names its schema declares. */
export type Target = { method: string; template: string; params: string[] }

/** Every (method, path) of the namespace, from the route table itself. */
/** The media types other than JSON that routes of the table answer with. */
const PRODUCED = new Set(
  ROUTES.flatMap((route) => (route.produces ? [route.produces.split(';')[0]!.toLowerCase()] : [])),
)

export const TARGETS: Target[] = ROUTES.flatMap((route) =>
  route.methods.map((method) => ({
    method,
    template: route.path,
    params: Object.keys(route.params.shape),
  })),
)

const ALL_PARAMS = [...new Set(TARGETS.flatMap((target) => target.params))].sort()

/** Methods fetch can send (TRACE and CONNECT it refuses); the namespace must answer all of them. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const

// ---------------------------------------------------------------------------------------------------
// Pools of real ids and slugs

export type Kind = ResourceKey

/**
 * Ids and slugs that exist, per kind: the generators draw path parameters from them so that requests
 * reach handlers, not only validation. Generation reads the arrays when it runs, so items created
 * during the fuzz become targets too (a replayed seed therefore depends on the ids the server hands out).
 */
export type Pools = Record<Kind, { ids: number[]; slugs: string[] }>

function emptyPools(): Pools {
  return {
    events: { ids: [], slugs: [] },
    venues: { ids: [], slugs: [] },
    organizers: { ids: [], slugs: [] },
    categories: { ids: [], slugs: [] },
    tags: { ids: [], slugs: [] },
  }
}

function kindOf(template: string): Kind | undefined {
  const first = template.split('/')[1]
  return first === 'events' ||
    first === 'venues' ||
    first === 'organizers' ||
    first === 'categories' ||
    first === 'tags'
    ? first
    : undefined
}

// ---------------------------------------------------------------------------------------------------
// Hostile values

const LANGUAGE_CODES: string[] = LANGUAGES.map((language) => language.code)
const BAD_LANGUAGES = [
  '',
  'xx',
  'EN',
  'Fr',
  'fr-FR',
  'fr_FR',
  'zh-Hans',
  'zh',
  'pt',
  'pt_BR',
  'en ',
  ' en',
  'en\u0000',
  'all',
  '*',
  'default',
  '../en',
  'en,fr',
  '%',
  '日本語',
  'null',
  'undefined',
  'ua\r\nX-Injected: 1',
]

const SQL_FRAGMENTS = [
  "' OR '1'='1",
  "' OR 1=1--",
  '" OR ""="',
  '1; DROP TABLE events;--',
  "1' ORDER BY 1--",
  "' UNION SELECT password FROM users--",
  "%' AND 1=0 UNION SELECT NULL,NULL--",
  "'; SELECT pg_sleep(5);--",
  '1) OR (1=1',
  '$$; select 1; $$',
  "\\'; --",
  'title DESC; DELETE FROM events',
  'id asc, (select 1)',
  '(SELECT CASE WHEN (1=1) THEN 1 ELSE 1/(SELECT 0) END)',
  "' || pg_read_file('/etc/passwd') || '",
  "E'\\x00'",
  'name; --',
  'count) desc --',
  '1 AND (SELECT 1 FROM pg_sleep(3))',
  '%',
  '_',
  '\\',
  '%%%%%%%%%%%%%%%%',
  '[a-z]*',
  '.*',
]

const JSON_FRAGMENTS = [
  '{',
  '}',
  '[',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'null',
  'true',
  '"string"',
  '[]',
  '[1,2,3]',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '{"title":"\\u0000"}',
  '{"title":"\\ud800"}',
  '\uFEFF{"title":"bom"}',
  '{"title":"x"}garbage',
  '/* comment */ {}',
  '{"$where":"1==1"}',
  '{"$gt":""}',
]

const UNICODE_TEXT = [
  'é',
  'ß',
  '日本語のイベント',
  'العربية',
  'حفل موسيقي في المساء',
  '\u202Egnp.exe',
  '\u200F\u200E',
  '\uFEFF',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\t',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦🎉',
  '\u{10FFFF}',
  'Ω≈ç√∫',
  'İıŞş',
  'ǅ',
  '\u00A0',
  '\u2028\u2029',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg/onload=alert(1)>',
  '../../etc/passwd',
  '{{7*7}}',
  '${7*7}',
  '%s%s%s%n',
  'a'.repeat(10_000),
  'ü'.repeat(1_200),
]

/** Header-injection payloads: the decoded value carries CR/LF and a header line. */
const CRLF_TEXT = [
  'x\r\nSet-Cookie: injected=1',
  'x\r\nX-Injected: 1',
  'x\nX-Injected: 1',
  'x\rX-Injected: 1',
  '\r\n\r\n<html>injected</html>',
]

const DATES = [
  '2026-12-01',
  '2026-12-01 10:00:00',
  '2026-12-01T10:00:00Z',
  '2026-12-01T10:00:00+02:00',
  'tomorrow 9am',
  'next wednesday 4pm',
  '+5 days 11am',
  'last monday',
  'yesterday',
  'now',
  'noon',
  '1767225600',
  '2018-02-30',
  '2026-13-01',
  '2026-00-10',
  '0000-00-00',
  '0000-00-00 00:00:00',
  '9999-12-31 23:59:59',
  '10000-01-01',
  '-0001-01-01',
  '2026-01-01T24:00:00Z',
  '2026-01-01T00:00:00+25:00',
  '2026-02-29',
  '1e20',
  '99999999999999999999',
  '-99999999999999',
  'P1D',
  '@1234567890',
  '31/12/2026',
  'Mon, 01 Jan 2026 00:00:00 GMT',
  '2026-W01',
  'infinity',
  '-infinity',
  'epoch',
  'allballs',
  'next foo',
  '+99999999 days',
  '+1e308 days',
  '',
  ' ',
]

const NUMBERS = [
  '0',
  '-1',
  '1',
  '2',
  '10',
  '50',
  '51',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e308',
  '1e309',
  '-1e308',
  '1.5',
  '0.0000001',
  '1e3',
  ' 1',
  '1 ',
  '+1',
  '0x10',
  '010',
  '١٢٣',
  '１２',
  'NaN',
  'Infinity',
  '-0',
  '00000000000000000000001',
]

const IMAGE_URLS = [
  'http://127.0.0.1/a.png',
  'http://127.0.0.1:1/a.png',
  'http://localhost/a.png',
  'http://[::1]/a.png',
  'http://10.0.0.1/a.png',
  'http://169.254.169.254/latest/meta-data/',
  'http://0.0.0.0/',
  'http://0x7f000001/a.png',
  'http://2130706433/a.png',
  'http://[::ffff:127.0.0.1]/a.png',
  'http://192.168.1.1/a.png',
  'http://example.invalid/a.png',
  'ftp://127.0.0.1/a.png',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'gopher://127.0.0.1:25/',
]

const STATUSES = [
  'publish',
  'draft',
  'pending',
  'private',
  'future',
  'trash',
  'any',
  'inherit',
  'auto-draft',
  'PUBLISH',
  'publish,draft',
  'publish, trash',
]
const ORDERS = [
  'asc',
  'desc',
  'ASC',
  'DeSc',
  'random',
  'asc;--',
  'name',
  'id',
  'slug',
  'count',
  'description',
  'term_group',
  'date',
  'rand()',
  'name DESC',
  'id,name',
  '-id',
  'title',
]
const BOOLEANS = [
  'true',
  'false',
  '1',
  '0',
  'yes',
  'no',
  'on',
  'off',
  'TRUE',
  '',
  'null',
  '2',
  '-1',
  'y',
  'enabled',
]

const NESTING_KEYS = [
  '[]',
  '[0]',
  '[1]',
  '[99]',
  '[100]',
  '[a]',
  '[0][venue]',
  '[0][organizer]',
  '[][]',
  '[id]',
  '[__proto__]',
  '[constructor][prototype]',
  '[prototype]',
  '[toString]',
  '[hasOwnProperty]',
  '[',
  ']',
  '[[]]',
  '[ ]',
  '[-1]',
]
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  '',
  ' ',
  '[]',
  '[0]',
  'a.b',
  'where',
  'where[or][0][id][exists]',
  'depth',
  'locale',
  'draft',
  'overrideAccess',
  'select',
  'populate',
  'limit',
  'sort',
  '_method',
  'rest_route',
]

/** A string that can be put in a URL: lone surrogates (which UTF-8 cannot carry) become U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  )
}

function encode(text: string): string {
  return encodeURIComponent(wellFormed(text))
}

const textValue: fc.Arbitrary<string> = fc.oneof(
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
const BAD_NUMBER: fc.Arbitrary<unknown> = fc.oneof(
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

function keyArbitrary(params: string[]): fc.Arbitrary<string> {
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

function jsonValue(params: string[]): fc.Arbitrary<unknown> {
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

// ---------------------------------------------------------------------------------------------------
// Requests

export type Auth =
  'anonymous' | 'administrator' | 'bad-jwt' | 'expired-jwt' | 'bad-api-key' | 'malformed'

/** A body as data; `huge` and `stream` are materialised only when sent. */
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'text'; text: string; contentType?: string }
  | { kind: 'bytes'; bytes: number[]; contentType?: string }
  | { kind: 'form'; pairs: [string, string][]; contentType: string }
  | { kind: 'multipart'; raw: string; contentType: string }
  | { kind: 'huge'; bytes: number; contentType: string }
  | { kind: 'stream'; bytes: number; contentType: string }
  | { kind: 'bomb'; text: string; contentType: string }

export type FuzzRequest = {
  method: string
  /** Language root (`/fr`) or none. */
  prefix: string
  /** Path under the namespace, already percent-encoded: `/events/12`. */
  path: string
  /** Query string without `?`, already encoded (may hold deliberate garbage). */
  query: string
  auth: Auth
  headers: Record<string, string>
  body: BodySpec
  /** The route-table entry it was made for (`GET /events/{id}`), for statistics. */
  target: string
}

/** Hostile path segments, malformed percent-encoding among them (`queryArbitrary` does the query string). */
const SLUG_SEGMENTS = [
  '%FF',
  '%zz',
  '%C0%AF',
  'a%',
  '%E2%82',
  '%00',
  'a%00b',
  '%0d%0aSet-Cookie:%20injected=1',
  '%0D%0AX-Injected:%201',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  'a%2Fb',
  '%20',
  '%09',
  "'%20OR%20'1'%3D'1",
  '1%3B%20DROP%20TABLE%20events',
  '%E2%80%AE',
  '%F0%9F%8E%89',
  'x'.repeat(2_000),
  '%25',
  '%2525',
  '*',
  '~',
  "a'b",
]

function idSegment(pool: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.nat().map((n) => (pool.length ? String(pool[n % pool.length]) : '1')),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0',
        '00',
        '2147483647',
        '2147483648',
        '99999999999999999999999',
        '9007199254740993',
      ),
    },
    // Leading zeros name the same record: only ever a pool id, so that writes stay on the fuzz's own records.
    {
      weight: 1,
      arbitrary: fc.nat().map((n) => (pool.length ? `000${pool[n % pool.length]}` : '0')),
    },
    { weight: 1, arbitrary: fc.integer({ min: 10_000_000, max: 2_000_000_000 }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '-1',
        '1.5',
        '1e3',
        'abc',
        '%39%39%39%39%39%39%39%39%39',
        '0x1',
        '%EF%BC%91',
        '1%00',
        ' 1',
        '',
      ),
    },
  )
}

function slugSegment(pool: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.nat().map((n) => (pool.length ? encode(pool[n % pool.length]!) : 'slug')),
    },
    { weight: 3, arbitrary: fc.constantFrom(...SLUG_SEGMENTS) },
    {
      weight: 2,
      arbitrary: textValue.filter((text) => text.length > 0 && text.length < 3000).map(encode),
    },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encode),
    },
  )
}

function pathArbitrary(template: string, pools: Pools): fc.Arbitrary<string> {
  const kind = kindOf(template)
  const pool = kind ? pools[kind] : { ids: [], slugs: [] }
  const pieces = template.split(/(\{id\}|\{slug\})/)
  return fc
    .tuple(
      ...pieces.map((piece) =>
        piece === '{id}'
          ? idSegment(pool.ids)
          : piece === '{slug}'
            ? slugSegment(pool.slugs)
            : fc.constant(piece),
      ),
    )
    .chain((parts) => fc.constantFrom(parts.join(''), parts.join('') + '/'))
}

/** `a[b][c]...` nested 1000 deep, `a[]=` repeated, `a[99999]=`: the structures qs must bound. */
function nestingBombs(): Record<string, string> {
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

function pairsArbitrary(params: string[]): fc.Arbitrary<[string, string][]> {
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

function encodePairs(pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')
}

function queryArbitrary(params: string[]): fc.Arbitrary<string> {
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

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json;;;',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=nope',
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  'image/png',
  'application/vnd.api+json',
  'application/merge-patch+json',
  '',
  ';',
  'json',
  '*/*',
]

const anyContentType = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      maxLength: 30,
    }),
  },
)

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW'

type Part = { name: string; value: string; filename?: string; type?: string }

function multipart(parts: Part[], boundary = BOUNDARY, close = true): string {
  const lines = parts.map((part) => {
    const disposition = `Content-Disposition: form-data; name="${part.name.replace(/"/g, '%22')}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`
    return `--${boundary}\r\n${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n${part.value}\r\n`
  })
  return lines.join('') + (close ? `--${boundary}--\r\n` : '')
}

function multipartArbitrary(params: string[]): fc.Arbitrary<BodySpec> {
  const part: fc.Arbitrary<Part> = fc.oneof(
    fc.record({ name: keyArbitrary(params), value: textValue.map(wellFormed) }),
    fc.record({
      name: fc.constantFrom('image', 'file', 'organizer[0][image]', 'venue[image]'),
      value: fc.string({ unit: 'binary-ascii', maxLength: 64 }),
      filename: fc.constantFrom('a.png', '../../x.png', 'a\u0000.png', '', 'é.jpg'),
      type: fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'image/svg+xml'),
    }),
  )
  const wellFormedBody = fc.array(part, { maxLength: 6 }).map((parts): BodySpec => ({
    kind: 'multipart',
    raw: multipart(parts),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  }))
  const garbage = fc
    .tuple(
      fc.array(part, { maxLength: 3 }),
      fc.constantFrom('unclosed', 'wrong-boundary', 'no-boundary', 'lf-only', 'junk'),
    )
    .map(([parts, how]): BodySpec => {
      if (how === 'unclosed')
        return {
          kind: 'multipart',
          raw: multipart(parts, BOUNDARY, false),
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        }
      if (how === 'wrong-boundary')
        return {
          kind: 'multipart',
          raw: multipart(parts, 'other'),
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        }
      if (how === 'no-boundary')
        return { kind: 'multipart', raw: multipart(parts), contentType: 'multipart/form-data' }
      if (how === 'lf-only')
        return {
          kind: 'multipart',
          raw: multipart(parts).replace(/\r\n/g, '\n'),
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        }
      return {
        kind: 'multipart',
        raw: `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\n\u0000\u0001--${BOUNDARY}`,
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      }
    })
  return fc.oneof(wellFormedBody, garbage)
}

/** Fields that get a write past parameter validation, so that bodies also reach handlers. */
function validBase(template: string): Record<string, unknown> {
  const name = `fz ${randomUUID().slice(0, 8)}`
  if (template === '/events')
    return { title: name, start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 12:00:00' }
  if (template === '/venues') return { venue: name }
  if (template === '/organizers') return { organizer: name }
  if (template === '/categories' || template === '/tags') return { name }
  return {}
}

/** Plausible values per field, so that a share of writes succeeds with unicode, RTL text, HTML and links. */
const BENIGN_TEXT = fc.constantFrom(
  'é',
  '日本語のイベント',
  'حفل موسيقي في المساء',
  '\u202Eevil',
  '👩‍👩‍👧‍👦🎉',
  '<p>Hi <b>there</b><script>alert(1)</script></p>',
  '<img src=x onerror=alert(1)>',
  "O'Brien; DROP TABLE events;--",
  'ü'.repeat(300),
)
const BENIGN: Record<string, fc.Arbitrary<unknown>> = {
  description: BENIGN_TEXT,
  excerpt: BENIGN_TEXT,
  title: BENIGN_TEXT,
  venue: fc.oneof(BENIGN_TEXT, fc.record({ venue: BENIGN_TEXT, city: BENIGN_TEXT })),
  organizer: fc.oneof(
    BENIGN_TEXT,
    fc.array(fc.record({ organizer: BENIGN_TEXT, email: fc.constant('o@example.org') }), {
      maxLength: 3,
    }),
  ),
  name: BENIGN_TEXT,
  status: fc.constantFrom('publish', 'draft', 'pending', 'private', 'future'),
  i18n_language: fc.constantFrom(...LANGUAGE_CODES),
  cost: fc.constantFrom('0', '10$', ['0$', '20$'], '€ 5', 'Free', '١٠'),
  website: fc.constantFrom('https://example.org/a?b=c', ''),
  featured: fc.boolean(),
  all_day: fc.constantFrom(true, false, '1', 'false'),
  timezone: fc.constantFrom(
    'Europe/Paris',
    'UTC+5',
    'UTC-3:30',
    'Asia/Kolkata',
    'Pacific/Chatham',
    '',
  ),
  categories: fc.array(BENIGN_TEXT, { maxLength: 3 }),
  tags: fc.constantFrom('a,b', 'اختبار', ''),
  password: fc.constantFrom('', 'secret'),
  start_date: fc.constantFrom('tomorrow 9am', '2031-05-01 10:00:00', '+5 days 11am'),
  slug: BENIGN_TEXT,
}

function benignArbitrary(target: Target): fc.Arbitrary<Record<string, unknown>> {
  const keys = target.params.filter((param) => param in BENIGN)
  if (!keys.length) return fc.constant({})
  return fc
    .uniqueArray(fc.constantFrom(...keys), { maxLength: 3 })
    .chain((chosen) =>
      chosen.length
        ? fc.record(Object.fromEntries(chosen.map((key) => [key, BENIGN[key]!])))
        : fc.constant({}),
    )
}

function jsonBodyArbitrary(target: Target): fc.Arbitrary<BodySpec> {
  const object = fc.dictionary(keyArbitrary(target.params), jsonValue(target.params), {
    maxKeys: 8,
  })
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
  )
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(object, contentType)
        .map(([value, type]): BodySpec => ({ kind: 'json', value, contentType: type })),
    },
    // Mostly valid writes with a few hostile fields: these reach the handlers and the database.
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.dictionary(keyArbitrary(target.params), jsonValue(target.params), { maxKeys: 3 }),
          contentType,
        )
        .map(([extra, type]): BodySpec => ({
          kind: 'json',
          value: { ...validBase(target.template), ...extra },
          contentType: type,
        })),
    },
    {
      weight: 3,
      arbitrary: benignArbitrary(target).map((extra): BodySpec => ({
        kind: 'json',
        value: { ...validBase(target.template), ...extra },
        contentType: 'application/json',
      })),
    },
    // Fields that name records, on every route (also where they are not fields), with numbers that name none.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'parent',
            'venue',
            'organizer',
            'author',
            'image',
            'categories',
            'tags',
            'event',
            'post',
            'include',
            'id',
          ),
          fc.oneof(BAD_NUMBER, fc.array(BAD_NUMBER, { minLength: 1, maxLength: 3 })),
        )
        .map(([key, value]): BodySpec => ({
          kind: 'json',
          value: { ...validBase(target.template), [key]: value },
          contentType: 'application/json',
        })),
    },
    {
      weight: 1,
      arbitrary: jsonValue(target.params).map((value): BodySpec => ({
        kind: 'json',
        value,
        contentType: 'application/json',
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...JSON_FRAGMENTS)
        .map((text): BodySpec => ({ kind: 'text', text, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes): BodySpec => ({
        kind: 'bytes',
        bytes: [0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, ...bytes, 0xc3, 0x28, 0x22, 0x7d],
        contentType: 'application/json',
      })),
    },
  )
}

function formBodyArbitrary(target: Target): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: pairsArbitrary(target.params).map((pairs): BodySpec => ({
        kind: 'form',
        pairs,
        contentType: 'application/x-www-form-urlencoded',
      })),
    },
    {
      weight: 3,
      arbitrary: pairsArbitrary(target.params).map((pairs): BodySpec => ({
        kind: 'form',
        pairs: [
          ...(Object.entries(validBase(target.template)) as [string, string][]),
          ...pairs.slice(0, 3),
        ],
        contentType: 'application/x-www-form-urlencoded',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...Object.values(nestingBombs())).map((text): BodySpec => ({
        kind: 'bomb',
        text,
        contentType: 'application/x-www-form-urlencoded',
      })),
    },
  )
}

function bodyArbitrary(target: Target): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
    { weight: 10, arbitrary: jsonBodyArbitrary(target) },
    { weight: 5, arbitrary: formBodyArbitrary(target) },
    { weight: 3, arbitrary: multipartArbitrary(target.params) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(anyContentType, textValue.map(wellFormed))
        .map(([contentType, text]): BodySpec => ({ kind: 'text', text, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyContentType, fc.uint8Array({ maxLength: 256 }))
        .map(([contentType, bytes]): BodySpec => ({
          kind: 'bytes',
          bytes: [...bytes],
          contentType,
        })),
    },
    // JSON nested 50 000 deep: the parser and the schemas must not recurse into a crash.
    {
      weight: 1,
      arbitrary: fc.constantFrom('[', '{"a":').map((open): BodySpec => ({
        kind: 'bomb',
        text: `{"title":${open.repeat(50_000)}1${(open === '[' ? ']' : '}').repeat(50_000)}}`,
        contentType: 'application/json',
      })),
    },
    // 10 MB, with a Content-Length and streamed without one (chunked).
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom<'huge' | 'stream'>('huge', 'stream'),
          fc.constantFrom(
            'application/json',
            'application/x-www-form-urlencoded',
            `multipart/form-data; boundary=${BOUNDARY}`,
            'text/plain',
          ),
        )
        .map(([kind, contentType]): BodySpec => ({ kind, bytes: 10 * 1024 * 1024, contentType })),
    },
  )
}

const EXTRA_HEADERS: Record<string, string>[] = [
  {},
  { 'If-None-Match': '*' },
  { 'If-None-Match': '"x", W/"y"' },
  { 'Accept-Language': 'ar, fr;q=0.5' },
  { 'X-HTTP-Method-Override': 'DELETE' },
  { 'X-WP-Method-Override': 'DELETE' },
  { Origin: 'http://evil.example' },
  { Accept: 'application/xml' },
  { Cookie: 'payload-token=garbage' },
  { 'X-Forwarded-Host': 'evil.example' },
  { 'X-Forwarded-Proto': 'javascript' },
  { Range: 'bytes=0-10' },
]

/** Requests for one route-table entry: its method, or a method it does not have (→ rest_no_route). */
function requestArbitrary(
  target: Target,
  pools: Pools,
  auths: readonly Auth[],
): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 9, arbitrary: fc.constant(target.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  )
  const prefix = fc.oneof(
    { weight: 12, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.constantFrom(...LANGUAGE_CODES.map((code) => `/${code}`)) },
    { weight: 1, arbitrary: fc.constantFrom('/xx', '/EN', '/fr-FR', '/%00', '/..') },
  )
  return fc
    .record({
      method,
      prefix,
      path: pathArbitrary(target.template, pools),
      query: fc.oneof(
        { weight: 2, arbitrary: fc.constant('') },
        { weight: 3, arbitrary: queryArbitrary(target.params) },
      ),
      auth: fc.constantFrom(...auths),
      headers: fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constantFrom(...EXTRA_HEADERS) },
      ),
      body: bodyArbitrary(target),
    })
    .map((request) => ({
      ...request,
      // Bodies only where a client can send one.
      body:
        request.method === 'GET' || request.method === 'HEAD'
          ? ({ kind: 'none' } as const)
          : request.body,
      target: `${target.method} ${target.template || '/'}`,
    }))
}

/** Requests over every route and method of the table, evenly. */
function anyRequest(
  pools: Pools,
  auths: readonly Auth[],
  filter: (target: Target) => boolean = () => true,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...TARGETS.filter(filter).map((target) => requestArbitrary(target, pools, auths)))
}

/** Forged, expired and malformed credentials must count as anonymous; plain anonymous callers are the most common. */
const NOT_ADMIN: Auth[] = [
  'anonymous',
  'anonymous',
  'anonymous',
  'bad-jwt',
  'expired-jwt',
  'bad-api-key',
  'malformed',
]

const isRead = (request: FuzzRequest) => ['GET', 'HEAD', 'OPTIONS'].includes(request.method)

/** GET, HEAD and OPTIONS on every path: a quarter as the administrator, who sees everything. */
export function readRequests(fixtures: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  const get = (target: Target) => target.method === 'GET'
  return fc
    .oneof(
      { weight: 3, arbitrary: anyRequest(fixtures.readerPools, NOT_ADMIN, get) },
      { weight: 1, arbitrary: anyRequest(fixtures.readerPools, ['administrator'], get) },
    )
    .filter(isRead)
}

/**
 * Every other method on every path (a method a path does not have included): half as the administrator,
 * aimed at the fuzz's own records only, so that the rest of the database is left alone.
 */
export function writeRequests(fixtures: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      { weight: 1, arbitrary: anyRequest(fixtures.readerPools, NOT_ADMIN) },
      { weight: 1, arbitrary: anyRequest(fixtures.adminPools, ['administrator']) },
    )
    .filter((request) => !isRead(request))
}

// ---------------------------------------------------------------------------------------------------
// Sending

export type Tokens = { administrator?: string }

export type Outcome = {
  status: number
  headers: Headers
  text: string
  ms: number
  /** Set when no HTTP answer came back. */
  error?: string
  /** fetch refused to send it (e.g. a header value fetch itself rejects): not the server's doing. */
  unsendable?: boolean
  /** The network error of a first attempt that was retried. */
  retried?: string
}

const EXPIRED_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MSwiY29sbGVjdGlvbiI6InVzZXJzIiwiZW1haWwiOiJhZG1pbkBjYWxlbmRhci50ZXN0IiwiaWF0IjoxLCJleHAiOjJ9.c2lnbmF0dXJl'

function authorization(auth: Auth, tokens: Tokens): Record<string, string> {
  switch (auth) {
    case 'administrator':
      return tokens.administrator ? { Authorization: `JWT ${tokens.administrator}` } : {}
    case 'bad-jwt':
      return { Authorization: 'JWT eyJhbGciOiJub25lIn0.eyJpZCI6MSwiY29sbGVjdGlvbiI6InVzZXJzIn0.' }
    case 'expired-jwt':
      return { Authorization: `JWT ${EXPIRED_JWT}` }
    case 'bad-api-key':
      return { Authorization: "users API-Key ' OR 1=1--" }
    case 'malformed':
      return { Authorization: 'Bearer \u00e9\u00e9' }
    default:
      return {}
  }
}

function hugeBuffer(bytes: number, contentType: string): Buffer {
  const buffer = Buffer.alloc(bytes, 0x61)
  if (contentType.startsWith('application/json')) {
    buffer.write('{"title":"', 0)
    buffer.write('"}', bytes - 2)
  } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
    buffer.write('title=', 0)
  }
  return buffer
}

function hugeStream(bytes: number, contentType: string): ReadableStream<Uint8Array> {
  const whole = hugeBuffer(bytes, contentType)
  const chunk = 64 * 1024
  let offset = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= whole.length) return controller.close()
      controller.enqueue(new Uint8Array(whole.subarray(offset, offset + chunk)))
      offset += chunk
    },
  })
}

function bodyOf(spec: BodySpec): { body?: BodyInit; contentType?: string; stream?: boolean } {
  switch (spec.kind) {
    case 'none':
      return {}
    case 'json': {
      let text: string
      try {
        text = JSON.stringify(spec.value) ?? 'null'
      } catch {
        text = '{}'
      }
      return { body: text, contentType: spec.contentType }
    }
    case 'text':
      return { body: spec.text, contentType: spec.contentType }
    case 'bytes':
      return { body: new Uint8Array(spec.bytes), contentType: spec.contentType }
    case 'form':
      return { body: encodePairs(spec.pairs), contentType: spec.contentType }
    case 'multipart':
      return { body: spec.raw, contentType: spec.contentType }
    case 'bomb':
      return { body: spec.text, contentType: spec.contentType }
    case 'huge':
      return {
        body: new Uint8Array(hugeBuffer(spec.bytes, spec.contentType)),
        contentType: spec.contentType,
      }
    case 'stream':
      return {
        body: hugeStream(spec.bytes, spec.contentType),
        contentType: spec.contentType,
        stream: true,
      }
  }
}

function urlOf(base: string, request: FuzzRequest): string {
  return `${base}${request.prefix}${NAMESPACE}${request.path}${request.query ? `?${request.query}` : ''}`
}

/**
 * Sends a request. A connection reset before any answer is retried once (after 250 ms): a keep-alive
 * socket closed by the server just as the client reused it is a race of HTTP/1.1 clients, not an answer;
 * so is a body over the limit whose connection the server closes after its early 413, before the
 * client, still sending, has read it (seen once in 100k requests on a loaded machine). Two in a row
 * are reported.
 */
export async function send(
  base: string,
  request: FuzzRequest,
  tokens: Tokens,
  timeoutMs = 60_000,
): Promise<Outcome> {
  const first = await sendOnce(base, request, tokens, timeoutMs)
  if (
    !first.error ||
    first.unsendable ||
    !/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/.test(first.error)
  )
    return first
  await new Promise((resolve) => setTimeout(resolve, 250))
  const second = await sendOnce(base, request, tokens, timeoutMs)
  return { ...second, retried: first.error }
}

async function sendOnce(
  base: string,
  request: FuzzRequest,
  tokens: Tokens,
  timeoutMs: number,
): Promise<Outcome> {
  const { body, contentType, stream } = bodyOf(request.body)
  const headers: Record<string, string> = {
    ...request.headers,
    ...authorization(request.auth, tokens),
  }
  if (contentType !== undefined && contentType !== '') headers['Content-Type'] = contentType
  const started = performance.now()
  let response: Response
  try {
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    }
    if (stream) init.duplex = 'half'
    response = await fetch(urlOf(base, request), init)
  } catch (error) {
    const message = describeError(error)
    // fetch validates URL, method and headers before anything is sent: those are the client's limits.
    const code =
      error instanceof Error ? (error.cause as { code?: string } | undefined)?.code : undefined
    const unsendable =
      error instanceof TypeError &&
      (!/fetch failed/i.test(error.message) || code === 'UND_ERR_INVALID_ARG')
    return {
      status: 0,
      headers: new Headers(),
      text: '',
      ms: performance.now() - started,
      error: message,
      unsendable,
    }
  }
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    return {
      status: response.status,
      headers: response.headers,
      text: '',
      ms: performance.now() - started,
      error: `body: ${describeError(error)}`,
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    ms: performance.now() - started,
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause =
    error.cause instanceof Error
      ? ` (${(error.cause as Error & { code?: string }).code ?? ''} ${error.cause.message})`
      : ''
  return `${error.name}: ${error.message}${cause}`
}

/** Whether the request's body is larger than the namespace reads (413 then, whatever else is wrong). */
function oversized(request: FuzzRequest, maxBodyBytes = 2 * 1024 * 1024): boolean {
  // A CORS preflight (OPTIONS) is answered before any body would be read.
  return (
    request.method !== 'OPTIONS' &&
    (request.body.kind === 'huge' || request.body.kind === 'stream') &&
    request.body.bytes > maxBodyBytes
  )
}

// ---------------------------------------------------------------------------------------------------
// Checking

/**
 * Everything wrong with one answer, as sentences (empty: nothing). `secrets`: text that must never
 * reach a caller who is not the administrator (content of drafts and password-protected fixtures).
 */
export function violations(
  request: FuzzRequest,
  outcome: Outcome,
  secrets: string[] = [],
): string[] {
  const found: string[] = []
  if (outcome.unsendable) return found
  if (outcome.error) {
    // A server may close the connection of a body it refuses to read after answering 413; and a
    // redirect that echoes a long URL twice (Next's 308 for `//`: Location and Refresh) can exceed the
    // client's 16 KB limit on response headers: the server did answer.
    const headersOverflow =
      /UND_ERR_HEADERS_OVERFLOW/.test(outcome.error) &&
      request.path.length + request.query.length > 6_000
    if (!(oversized(request) && outcome.status === 413) && !headersOverflow)
      found.push(`no answer: ${outcome.error}`)
    return found
  }
  const { status } = outcome
  // Node's HTTP parser refuses request heads over 16 KB with a bare 431 before any application code runs.
  if (status === 431 && request.path.length + request.query.length > 12_000) return found
  if (status >= 500) found.push(`status ${status}`)
  if (status >= 400 && request.method !== 'HEAD') {
    let body: unknown
    try {
      body = JSON.parse(outcome.text)
    } catch {
      body = undefined
    }
    const envelope = body as
      { code?: unknown; message?: unknown; data?: { status?: unknown } } | undefined
    if (!envelope || typeof envelope !== 'object')
      found.push(`${status} without a JSON envelope: ${outcome.text.slice(0, 120)}`)
    else {
      if (typeof envelope.code !== 'string' || !envelope.code)
        found.push(`${status}: code is not a string`)
      if (typeof envelope.message !== 'string' || !envelope.message)
        found.push(`${status}: message is not a string`)
      if (!envelope.data || typeof envelope.data !== 'object' || envelope.data.status !== status)
        found.push(`${status}: data.status is ${JSON.stringify(envelope.data?.status)}`)
    }
  }
  // A redirect (Next's 308 for `//`) or an error answered before the body is read is fine; a success is not.
  if (oversized(request) && status !== 413 && !isNoRoute(outcome) && status < 300)
    found.push(
      `a ${request.body.kind} body of ${(request.body as { bytes: number }).bytes} bytes answered ${status}, not 413`,
    )
  if (outcome.headers.has('set-cookie'))
    found.push(`sets a cookie: ${outcome.headers.get('set-cookie')}`)
  if (outcome.headers.has('x-injected')) found.push('a header was injected through CR/LF')
  if (request.auth !== 'administrator') {
    for (const secret of secrets)
      if (outcome.text.includes(secret))
        found.push(`leaks protected or unpublished content (${secret}) to ${request.auth}`)
  }
  if (status >= 200 && status < 300 && status !== 204 && request.method !== 'HEAD') {
    // A route that answers another media type says so in the table: iCalendar must be a whole
    // VCALENDAR, its last line ended by CRLF like every other (docs/api.md §22), CSV any text; every
    // other answer is JSON.
    const type = (outcome.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (type === 'text/calendar') {
      if (!/^BEGIN:VCALENDAR\r\n[^]*\r\nEND:VCALENDAR\r\n$/.test(outcome.text))
        found.push(`${status} with a calendar that is not a VCALENDAR`)
      return found
    }
    if (PRODUCED.has(type)) return found
    try {
      JSON.parse(outcome.text)
    } catch {
      found.push(`${status} with a body that is not JSON`)
    }
  }
  return found
}

function isNoRoute(outcome: Outcome): boolean {
  return outcome.text.includes('"rest_no_route"')
}

/** Long runs of one character (`aaaa…`, `a[]=&a[]=&…`) as `a…(×2000)`, so that reports stay readable. */
function squeeze(text: string): string {
  return text.replace(
    /(.{1,6}?)\1{20,}/gs,
    (run, unit: string) => `${unit}…(×${run.length / unit.length})`,
  )
}

/** A short, printable form of a request (bodies cut), for failure reports. */
export function describe(request: FuzzRequest): string {
  const body = request.body
  let shown: string
  switch (body.kind) {
    case 'none':
      shown = ''
      break
    case 'huge':
    case 'stream':
      shown = `<${body.kind} ${body.bytes} bytes, ${body.contentType}>`
      break
    case 'json':
      shown = `${body.contentType} ${safeJson(body.value).slice(0, 300)}`
      break
    case 'form':
      shown = `${body.contentType} ${encodePairs(body.pairs).slice(0, 300)}`
      break
    case 'bytes':
      shown = `${body.contentType ?? '-'} <${body.bytes.length} bytes>`
      break
    default:
      shown = `${body.contentType ?? '-'} ${JSON.stringify(body.kind === 'multipart' ? body.raw : body.text).slice(0, 300)}`
  }
  shown = squeeze(shown)
  const full = squeeze(
    `${request.prefix}${NAMESPACE}${request.path}${request.query ? `?${request.query}` : ''}`,
  )
  const url = full.length > 400 ? `${full.slice(0, 400)}…(${full.length} chars)` : full
  return `${request.method} ${url} as ${request.auth}${Object.keys(request.headers).length ? ` ${JSON.stringify(request.headers)}` : ''}${shown ? ` body: ${shown}` : ''}`
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined'
  } catch {
    return String(value)
  }
}

// ---------------------------------------------------------------------------------------------------
// Database fingerprints: did a request write anything?

/**
 * Tables the namespace may write; users, sessions, Payload's own bookkeeping and the throttles'
 * counters (a wrong password counts as a failure even on a read, docs/api.md §9) are left out.
 */
const EXCLUDED_TABLES = /^(users|payload_|calendar_login_failures$|calendar_rate_buckets$)/

export type Fingerprinter = { take: () => Promise<string>; close: () => Promise<void> }

/** A value that changes whenever any content table changes: an md5 of every row of every content table. */
export async function fingerprinter(databaseUrl: string): Promise<Fingerprinter> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const tables = (
    await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    )
  ).rows
    .map((row) => row.table_name)
    .filter((name) => !EXCLUDED_TABLES.test(name))
  const sql = tables
    .map(
      (table) =>
        `select '${table}' as t, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '') as f from "${table}" x`,
    )
    .join(' union all ')
  return {
    // In table order: PostgreSQL may answer the branches of a union in any order (a parallel append).
    take: async () =>
      (await client.query<{ t: string; f: string }>(sql)).rows
        .map((row) => `${row.t}=${row.f}`)
        .sort()
        .join(' '),
    close: () => client.end(),
  }
}

/** What is wrong with the database changing (or not) across one write request: `before` and `after` are fingerprints. */
export function writeViolations(
  request: FuzzRequest,
  outcome: Outcome,
  before: string,
  after: string,
): string[] {
  if (before === after || outcome.unsendable) return []
  const tables = changedTables(before, after).join(', ')
  if (outcome.status >= 400 || outcome.status === 0)
    return [`failed with ${outcome.status} but wrote to ${tables}`]
  if (request.auth !== 'administrator') return [`a ${request.auth} request wrote to ${tables}`]
  return []
}

/** Which tables differ between two fingerprints (for the report). */
export function changedTables(before: string, after: string): string[] {
  const parse = (text: string) =>
    new Map(text.split(' ').map((part) => part.split('=') as [string, string]))
  const a = parse(before)
  const b = parse(after)
  return [...new Set([...a.keys(), ...b.keys()])].filter((table) => a.get(table) !== b.get(table))
}

// ---------------------------------------------------------------------------------------------------
// Fixtures and clean-up

async function adminJson(
  base: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      Authorization: `JWT ${token}`,
      ...(init.headers as Record<string, string>),
    },
  })
  const text = await response.text()
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : null
}

/** The largest id of each collection the fuzz may write, so that everything after it can be removed. */
export async function highWaterMarks(base: string, token: string): Promise<Record<string, number>> {
  const marks: Record<string, number> = {}
  for (const collection of [...RESOURCES.map((resource) => resource.collection), 'media']) {
    const body = await adminJson(base, token, `/api/${collection}?limit=1&sort=-id&depth=0`)
    marks[collection] = (body.docs?.[0]?.id as number | undefined) ?? 0
  }
  return marks
}

/** Permanently deletes what was created after `marks` (events first: they link to the rest). */
export async function removeSince(
  base: string,
  token: string,
  marks: Record<string, number>,
): Promise<number> {
  let removed = 0
  for (const collection of [
    'events',
    'venues',
    'organizers',
    'event-categories',
    'event-tags',
    'media',
  ]) {
    for (let round = 0; round < 50; round++) {
      const body = await adminJson(
        base,
        token,
        `/api/${collection}?where[id][greater_than]=${marks[collection] ?? 0}&limit=200&depth=0&select[id]=true`,
      )
      const ids = (body.docs as { id: number }[]).map((doc) => doc.id)
      if (!ids.length) break
      await adminJson(
        base,
        token,
        `/api/${collection}?${ids.map((id, n) => `where[id][in][${n}]=${id}`).join('&')}&limit=200`,
        { method: 'DELETE' },
      )
      removed += ids.length
    }
  }
  return removed
}

export type FuzzFixtures = {
  /** Pools the administrator's requests draw from: made by the fuzz, free to change. */
  adminPools: Pools
  /** Pools of everyone else: the administrator's plus the protected and unpublished fixtures. */
  readerPools: Pools
  /** Text found only in protected or unpublished content: it must never reach a non-administrator. */
  secrets: string[]
}

/**
 * Records for the fuzz to aim at, made through Payload's REST as the administrator: published items of
 * every kind, plus a draft, a private and a password-protected event, venue and organizer whose content
 * carries a secret marker.
 */
export async function makeFixtures(base: string, token: string): Promise<FuzzFixtures> {
  const secret = `zzsecret${randomUUID().replace(/-/g, '').slice(0, 10)}`
  const adminPools = emptyPools()
  const readerPools = emptyPools()
  const add = (pools: Pools[], kind: Kind, doc: { id: number; slug?: string }) => {
    for (const pool of pools) {
      pool[kind].ids.push(doc.id)
      if (doc.slug) pool[kind].slugs.push(doc.slug)
    }
  }
  const create = async (collection: string, data: Record<string, unknown>) =>
    (
      await adminJson(base, token, `/api/${collection}`, {
        method: 'POST',
        body: JSON.stringify(data),
      })
    ).doc as { id: number; slug?: string }
  const start = '2031-06-01T10:00:00.000Z'
  const end = '2031-06-01T12:00:00.000Z'
  for (let n = 0; n < 3; n++) {
    const category = await create('event-categories', {
      name: `fuzz category ${n} ${randomUUID().slice(0, 6)}`,
    })
    const tag = await create('event-tags', { name: `fuzz tag ${n} ${randomUUID().slice(0, 6)}` })
    const venue = await create('venues', {
      name: `fuzz venue ${n} ${randomUUID().slice(0, 6)}`,
      status: 'publish',
      city: 'Lyon',
    })
    const organizer = await create('organizers', {
      name: `fuzz organizer ${n} ${randomUUID().slice(0, 6)}`,
      status: 'publish',
      email: 'o@example.org',
    })
    const event = await create('events', {
      title: `fuzz event ${n} ${randomUUID().slice(0, 6)}`,
      status: 'publish',
      start,
      end,
      venue: venue.id,
      organizers: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    })
    add([adminPools, readerPools], 'categories', category)
    add([adminPools, readerPools], 'tags', tag)
    add([adminPools, readerPools], 'venues', venue)
    add([adminPools, readerPools], 'organizers', organizer)
    add([adminPools, readerPools], 'events', event)
  }
  const password = `pw-${randomUUID()}`
  const hiddenVenue = await create('venues', {
    name: `fuzz hidden venue ${secret}`,
    status: 'draft',
    city: secret,
  })
  const privateVenue = await create('venues', {
    name: `fuzz private venue ${secret}`,
    status: 'private',
    city: secret,
  })
  const lockedVenue = await create('venues', {
    name: 'fuzz locked venue',
    status: 'publish',
    password,
    address: secret,
    city: secret,
    phone: secret,
    website: `https://${secret}.example`,
  })
  const hiddenOrganizer = await create('organizers', {
    name: `fuzz hidden organizer ${secret}`,
    status: 'pending',
    email: `${secret}@example.org`,
  })
  const lockedOrganizer = await create('organizers', {
    name: 'fuzz locked organizer',
    status: 'publish',
    password,
    email: `${secret}@example.org`,
    phone: secret,
  })
  const hiddenEvent = await create('events', {
    title: `fuzz draft event ${secret}`,
    status: 'draft',
    start,
    end,
    website: `https://${secret}.example`,
  })
  const privateEvent = await create('events', {
    title: `fuzz private event ${secret}`,
    status: 'private',
    start,
    end,
  })
  const trashedEvent = await create('events', {
    title: `fuzz trashed event ${secret}`,
    status: 'trash',
    start,
    end,
  })
  const lockedEvent = await create('events', {
    title: 'fuzz locked event',
    status: 'publish',
    password,
    start,
    end,
    website: `https://${secret}.example`,
    cost: [secret],
    venue: lockedVenue.id,
    organizers: [lockedOrganizer.id, hiddenOrganizer.id],
  })
  // A published event that links the hidden venue and organizers: embeds must not show them.
  const linking = await create('events', {
    title: 'fuzz linking event',
    status: 'publish',
    start,
    end,
    venue: hiddenVenue.id,
    organizers: [hiddenOrganizer.id, lockedOrganizer.id],
  })
  add([adminPools, readerPools], 'events', linking)
  for (const venue of [hiddenVenue, privateVenue, lockedVenue]) add([readerPools], 'venues', venue)
  for (const organizer of [hiddenOrganizer, lockedOrganizer])
    add([readerPools], 'organizers', organizer)
  for (const event of [hiddenEvent, privateEvent, trashedEvent, lockedEvent])
    add([readerPools], 'events', event)
  return { adminPools, readerPools, secrets: [secret, password] }
}

/** Adds what a successful create answered (201 with an object that has an id and a slug) to the pools. */
export function learn(pools: Pools[], request: FuzzRequest, outcome: Outcome): void {
  if (outcome.status !== 201) return
  const kind = kindOf(request.path)
  if (!kind) return
  try {
    const body = JSON.parse(outcome.text) as { id?: unknown; slug?: unknown }
    if (typeof body.id !== 'number') return
    for (const pool of pools) {
      if (!pool[kind].ids.includes(body.id)) pool[kind].ids.push(body.id)
      if (typeof body.slug === 'string' && body.slug && !pool[kind].slugs.includes(body.slug))
        pool[kind].slugs.push(body.slug)
    }
  } catch {
    // not JSON: the checker reports it
  }
}

// ---------------------------------------------------------------------------------------------------
// Statistics

export class Tally {
  readonly byStatus = new Map<string, number>()
  readonly byTarget = new Map<string, Map<number, number>>()
  requests = 0
  unsendable = 0
  retried = 0
  slowest = { ms: 0, request: '' }

  add(request: FuzzRequest, outcome: Outcome): void {
    this.requests++
    if (outcome.unsendable) this.unsendable++
    if (outcome.retried) this.retried++
    const key = outcome.unsendable
      ? 'unsendable'
      : outcome.error
        ? 'no answer'
        : String(outcome.status)
    this.byStatus.set(key, (this.byStatus.get(key) ?? 0) + 1)
    const perTarget = this.byTarget.get(request.target) ?? new Map<number, number>()
    perTarget.set(outcome.status, (perTarget.get(outcome.status) ?? 0) + 1)
    this.byTarget.set(request.target, perTarget)
    if (outcome.ms > this.slowest.ms)
      this.slowest = { ms: outcome.ms, request: describe(request).slice(0, 200) }
  }

  summary(): string {
    const statuses = [...this.byStatus.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}: ${count}`)
    return `${this.requests} requests — ${statuses.join(', ')}${this.retried ? ` — ${this.retried} retried after a connection reset` : ''} — slowest ${Math.round(this.slowest.ms)} ms (${this.slowest.request})`
  }

  table(): string {
    const statuses = [
      ...new Set([...this.byTarget.values()].flatMap((counts) => [...counts.keys()])),
    ].sort((a, b) => a - b)
    const rows = [...this.byTarget.entries()].sort(([a], [b]) => a.localeCompare(b))
    const width = Math.max(...rows.map(([target]) => target.length), 6)
    const header = `${'route'.padEnd(width)} ${statuses.map((status) => String(status).padStart(6)).join('')}`
    return [
      header,
      ...rows.map(
        ([target, counts]) =>
          `${target.padEnd(width)} ${statuses.map((status) => String(counts.get(status) ?? '').padStart(6)).join('')}`,
      ),
    ].join('\n')
  }
}
