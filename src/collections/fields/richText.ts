import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM } from 'jsdom'
import type { SanitizedConfig } from 'payload'

type EditorConfig = Awaited<ReturnType<typeof editorConfigFactory.default>>

let editorConfig: Promise<EditorConfig> | undefined

let parsing: Document | undefined

/**
 * A document holding `html` as a whole document's content: parsed into its root element, from the
 * HTML parser's "before head" on, so head elements (a title, a style) go to its head as they would in
 * a document of their own, and what is left to its body. One document serves the process, each
 * parse replacing the last one's content: a window per write cost more than the rest of the
 * conversion, a document per write was kept for good by the window's selector engine, and a new
 * window every hundred documents still cost a short description half its conversion
 * (docs/performance.md, "Memory", "What a description costs a write"). The conversion reads the
 * document synchronously, so no caller finds it holding another's HTML.
 */
export function parseHtml(html: string): Document {
  // A document of no window, as DOMParser makes them: an iframe in a window's document gets a window
  // of its own, 20 ms each.
  parsing ??= new JSDOM('').window.document.implementation.createHTMLDocument('')
  parsing.documentElement.innerHTML = html
  return parsing
}

/** What the conversion asks of JSDOM: a window whose document is the HTML's. */
class ParsedHtml {
  readonly window: { document: Document }

  constructor(html: string) {
    const document = parseHtml(html)
    // The converter makes an `<img>` an upload node naming no media item, which Payload then refuses
    // with a message about its own node: a description from another site would be refused whole.
    for (const image of document.querySelectorAll('img')) image.remove()
    this.window = { document }
  }
}

/**
 * HTML sent to the namespace becomes the admin's rich text; the HTML served back is rendered from
 * it, so markup the editor cannot hold (scripts, handlers) never reaches readers.
 */
export async function htmlToRichText(config: SanitizedConfig, html: string) {
  editorConfig ??= editorConfigFactory.default({ config })
  return convertHTMLToLexical({ editorConfig: await editorConfig, html, JSDOM: ParsedHtml })
}
