import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { DOCUMENTS_PER_WINDOW, parseHtml } from '../../src/collections/fields/richText'

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

describe('the HTML parser of descriptions', () => {
  it('parses each description into a document of its own, still whole once its window has closed', () => {
    const first = parseHtml('<p>One <em>description</em></p>')
    for (let n = 0; n < DOCUMENTS_PER_WINDOW * 2; n++) parseHtml(`<p>Number ${n}</p>`)
    const last = parseHtml('<style>p {}</style><p>The last</p>')
    expect(first.body.innerHTML).toBe('<p>One <em>description</em></p>')
    expect(last.head.innerHTML).toBe('<style>p {}</style>')
    expect(last.body.textContent).toBe('The last')
  })

  // Every write with a description parses one, and the conversion looks elements up in it by
  // selector, which is what makes jsdom's window hold the document: a parser that kept its documents
  // grew the server's memory by about 40 KB with every event written, until it restarted.
  it('lets go of a document once the writes after it have gone on', async () => {
    const looked = (document: Document) => document.querySelector('p') && document
    const written = new WeakRef(looked(parseHtml('<p>Written long ago</p>'))!)
    for (let n = 0; n < DOCUMENTS_PER_WINDOW; n++) looked(parseHtml(`<p>Written after, ${n}</p>`))
    // A WeakRef holds its target until the end of the task that made it.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collectGarbage()
    expect(written.deref()).toBeUndefined()
  })
})
