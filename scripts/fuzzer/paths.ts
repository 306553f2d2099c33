/** Path segments: real ids and slugs from the pools, or hostile ones. */
import fc from 'fast-check'
import { kindOf, type Pools } from './routes'
import { encode, textValue } from './values'

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

export function pathArbitrary(template: string, pools: Pools): fc.Arbitrary<string> {
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
