/**
 * Request bodies as data: JSON (mostly valid writes with hostile fields), forms, multipart, raw
 * bytes, 10 MB ones.
 */
import fc from 'fast-check'
import { randomUUID } from 'node:crypto'
import { JSON_FRAGMENTS, LANGUAGE_CODES } from './hostileValues'
import { nestingBombs, pairsArbitrary } from './queries'
import { type BodySpec } from './request'
import { type Target } from './routes'
import { BAD_NUMBER, jsonValue, keyArbitrary, textValue, wellFormed } from './values'

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

/** Fields that name records, on every route (also where they are not fields), with numbers that name none. */
function linkFieldBody(target: Target): fc.Arbitrary<BodySpec> {
  return fc
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
    }))
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
    { weight: 2, arbitrary: linkFieldBody(target) },
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

export function bodyArbitrary(target: Target): fc.Arbitrary<BodySpec> {
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
