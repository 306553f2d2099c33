import { JSDOM } from 'jsdom'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { parseHtml } from '../../src/collections/fields/richText'

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

/** Descriptions as writers send them, well formed or not. */
const DESCRIPTIONS = [
  '<p>One <em>description</em></p>',
  'Just text<br>and a line <b>bold</b><p>para',
  '<p>one<p>two<li>three<b>bold<i>both</b>italic</i>',
  '<title>Title</title><meta charset="utf-8"><style>p {}</style><p>after</p>',
  '<!doctype html><html lang="fr"><head><title>T</title></head><body><p style="font-weight:bold">B</p><pre>a\n b</pre></body></html>',
  '<table><tr><td>cell</td></tr></table><p>x<div>y</div></p><script>alert(1)</script>',
  '<ol start="3"><li>a<ul><li>nested</li></ul></li><li>b</ol>caf&eacute; &#x1F600;',
]

describe('the HTML parser of descriptions', () => {
  it('parses a description as a document of its own would hold it, whatever was parsed before', () => {
    for (const html of DESCRIPTIONS) {
      const own = new JSDOM(html).window.document
      const parsed = parseHtml(html)
      expect(parsed.head.innerHTML).toBe(own.head.innerHTML)
      expect(parsed.body.innerHTML).toBe(own.body.innerHTML)
    }
  })

  // An iframe in a window's document gets a window of its own, which cost a description 20 ms each.
  it('makes no window for an embedded video', () => {
    const parsed = parseHtml('<p>Watch:</p><iframe src="https://video.example/embed/1"></iframe>')
    expect(parsed.querySelector('iframe')).not.toBeNull()
    expect(parsed.querySelector('iframe')!.contentWindow).toBeNull()
  })

  // Every write with a description parses one, and the conversion looks elements up in it by
  // selector: a document per description was kept for good by its window's selector engine.
  it('keeps nothing of the descriptions it parsed', async () => {
    const looked = (document: Document) => document.querySelector('p')
    const written = new WeakRef(looked(parseHtml('<p>Written long ago</p>'))!)
    for (let n = 0; n < 200; n++) looked(parseHtml(`<h2>Event ${n}</h2><p>Written after</p>`))
    // A WeakRef holds its target until the end of the task that made it.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collectGarbage()
    expect(written.deref()).toBeUndefined()
  })
})
