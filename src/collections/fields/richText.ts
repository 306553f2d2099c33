import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM } from 'jsdom'
import type { SanitizedConfig } from 'payload'

type EditorConfig = Awaited<ReturnType<typeof editorConfigFactory.default>>

let editorConfig: Promise<EditorConfig> | undefined
let parser: DOMParser | undefined

/**
 * What the conversion asks of JSDOM (a document of the HTML), from one window's parser for every
 * write: a window of its own per write cost more than the rest of the conversion (docs/performance.md,
 * "Where a write's time goes"). The parse is synchronous and each write gets a document of its own.
 */
class ParsedHtml {
  readonly window: { document: Document }

  constructor(html: string) {
    parser ??= new new JSDOM('').window.DOMParser()
    this.window = { document: parser.parseFromString(html, 'text/html') }
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
