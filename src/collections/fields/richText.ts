import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM, type DOMWindow } from 'jsdom'
import type { SanitizedConfig } from 'payload'

type EditorConfig = Awaited<ReturnType<typeof editorConfigFactory.default>>

let editorConfig: Promise<EditorConfig> | undefined

/** A new window costs about what a tenth of a write does: spread over 100 writes, for at most 100 documents kept (about 4 MB). */
export const DOCUMENTS_PER_WINDOW = 100

let parsing: { window: DOMWindow; parser: DOMParser; made: number } | undefined

/**
 * A document of `html`, from a parser shared by many writes: a window of its own per write cost more
 * than the rest of the conversion (docs/performance.md, "Where a write's time goes"). But jsdom's
 * selector engine adds listeners to the window for every document it makes and never removes them,
 * and once a document has been searched by selector, as the conversion searches each, those
 * listeners hold it: one window for the process's life held every description ever written
 * (docs/performance.md, "Memory"). A window therefore makes at most DOCUMENTS_PER_WINDOW documents
 * and is then closed, and they go with it.
 * The conversion reads its document synchronously, so no document is still in use when its window
 * closes.
 */
export function parseHtml(html: string): Document {
  if (!parsing || parsing.made >= DOCUMENTS_PER_WINDOW) {
    parsing?.window.close()
    const { window } = new JSDOM('')
    parsing = { window, parser: new window.DOMParser(), made: 0 }
  }
  parsing.made++
  return parsing.parser.parseFromString(html, 'text/html')
}

/** What the conversion asks of JSDOM: a window whose document is the HTML's. */
class ParsedHtml {
  readonly window: { document: Document }

  constructor(html: string) {
    this.window = { document: parseHtml(html) }
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
