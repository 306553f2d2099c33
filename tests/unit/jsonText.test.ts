import { describe, expect, it } from 'vitest'
import { jsonArray, JsonObjectWriter, JsonText } from '../../src/rest/http/jsonText'

const VALUES: Record<string, unknown> = {
  text: 'quote " backslash \\ line\u2028 </script> é 😀',
  empty: '',
  zero: 0,
  negativeZero: -0,
  fraction: -78.5,
  large: 1e21,
  notANumber: NaN,
  infinite: Infinity,
  yes: true,
  no: false,
  nothing: null,
  left: undefined,
  list: [1, undefined, 'a', { b: null }],
  nested: { date: new Date(0), deeper: { x: [] } },
}

describe('JSON written in one pass', () => {
  it('writes an object key by key as JSON.stringify writes it', () => {
    const out = new JsonObjectWriter()
    for (const [key, value] of Object.entries(VALUES)) out.add(key, value)
    expect(out.done().text).toBe(JSON.stringify(VALUES))
  })

  it('splices written text where a value goes, and leaves out what venues omit', () => {
    const inner = new JsonObjectWriter().add('a', 1).done()
    const out = new JsonObjectWriter()
      .add('inner', inner)
      .add('items', jsonArray([inner, { b: 2 }, undefined]))
      .addNonEmpty('empty', '')
      .addNonEmpty('no', false)
      .addNonEmpty('author', '0')
      .addNonEmpty('none', [])
      .addNonEmpty('zero', 0)
    expect(out.done().text).toBe('{"inner":{"a":1},"items":[{"a":1},{"b":2},null],"zero":0}')
  })

  it('gives the same JSON to whatever stringifies written text', () => {
    const written = new JsonText('{"a":[1,"x"],"b":{"c":null}}')
    expect(JSON.stringify({ body: written })).toBe(`{"body":${written.text}}`)
  })

  it('writes every UTF-16 code unit, lone surrogates and pairs as JSON.stringify writes them, as UTF-8', () => {
    const units = Array.from({ length: 0x10000 }, (_, unit) => String.fromCharCode(unit))
    const texts = [
      ...units,
      units.join(''),
      '😀 a pair, \ud83d a lone high, \ude00 a lone low, \ude00\ud83d reversed',
      'x'.repeat(100_000) + '"é"',
    ]
    for (const text of texts) {
      const written = new JsonObjectWriter().add('text', text).add('list', [text]).done()
      const expected = JSON.stringify({ text, list: [text] })
      expect(written.text).toBe(expected)
      expect(written.bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true)
    }
  })

  it('makes room for the longest escapes: control characters and lone surrogates', () => {
    for (const text of [
      '\u0001'.repeat(200_000),
      '\ud800'.repeat(200_000),
      '"\\'.repeat(300_000),
    ]) {
      const written = new JsonObjectWriter().add('text', text).done()
      expect(written.bytes.equals(Buffer.from(JSON.stringify({ text }), 'utf8'))).toBe(true)
    }
  })

  it('keeps each writer apart while several write at once, each growing', () => {
    // Longer than any buffer kept for reuse, so that both grow while the other is half written.
    const [long, longer] = ['x'.repeat(600_000), 'y'.repeat(900_000)]
    const outer = new JsonObjectWriter().add('a', long)
    const inner = new JsonObjectWriter().add('b', 1)
    outer.add('c', 2)
    inner.add('d', longer)
    const innerText = inner.done()
    const again = new JsonObjectWriter().add('e', 3).done()
    outer.add('inner', innerText)
    expect(outer.done().text).toBe(JSON.stringify({ a: long, c: 2, inner: { b: 1, d: longer } }))
    expect(again.text).toBe('{"e":3}')
    expect(innerText.text).toBe(JSON.stringify({ b: 1, d: longer }))
  })

  it("refuses a writer used after it is done, whose buffer is another writer's", () => {
    const done = new JsonObjectWriter().add('a', 1)
    expect(done.done().text).toBe('{"a":1}')
    expect(() => done.add('b', 'x'.repeat(100_000))).toThrow(/done/)
    expect(() => done.done()).toThrow(/done/)
  })

  it('leaves other writers whole after one fails half written', () => {
    const failing = {
      toJSON: () => {
        throw new Error('no JSON')
      },
    }
    expect(() => new JsonObjectWriter().add('a', 'x').add('b', failing)).toThrow('no JSON')
    expect(new JsonObjectWriter().add('c', 'é').done().text).toBe('{"c":"é"}')
  })

  it('writes a hole in an array as null, and splices text given as a string, non-ASCII included', () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3]
    expect(jsonArray(sparse).text).toBe(JSON.stringify(sparse))
    const given = new JsonText('{"name":"Café 😀"}')
    const written = new JsonObjectWriter().add('given', given).done()
    expect(written.bytes.equals(Buffer.from('{"given":{"name":"Café 😀"}}', 'utf8'))).toBe(true)
  })
})
