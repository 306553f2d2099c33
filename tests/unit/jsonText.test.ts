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
})
