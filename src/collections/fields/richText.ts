import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM } from 'jsdom'
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5'
import type { SanitizedConfig } from 'payload'
import { deeperThan } from '../../calendar/depth'
import { MAX_RICH_TEXT_DEPTH } from '../fieldTypes'

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
  // Measured on parse5's own tree, which it builds in linear time, before JSDOM builds its own.
  if (deeperThan<ParsedNode>(parseFragment(html), elementsIn, MAX_HTML_DEPTH))
    throw new UnreadableHtml(TOO_DEEP)
  parsing ??= new JSDOM('').window.document.implementation.createHTMLDocument('')
  parsing.documentElement.innerHTML = html
  return parsing
}

/**
 * Elements inside one another beyond what any description is written with. JSDOM inserts each
 * element in time that grows with its depth (40 ms for 250 levels, 0.9 s for 2,000), and ran out of
 * stack near 2,300 levels: the converter then found an empty document, the description was stored
 * empty with a 200, and the next write's was emptied too, clearing the half-made tree.
 */
export const MAX_HTML_DEPTH = 128

type ParsedNode = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment']

const elementsIn = (node: ParsedNode) =>
  'childNodes' in node ? node.childNodes.filter((child) => 'tagName' in child) : undefined

const TOO_DEEP = `Its HTML has elements nested more than ${MAX_HTML_DEPTH} deep.`

/** What MathML and SVG hold that is not shown as their text. */
const UNSEEN = 'style, script, annotation, annotation-xml, desc, metadata'

/** HTML that cannot become rich text: the write is refused, naming the field. */
export class UnreadableHtml extends Error {}

type LexicalNode = { children?: unknown }

/**
 * HTML sent to the namespace becomes the admin's rich text; the HTML served back is rendered from
 * it, so markup the editor cannot hold (scripts, handlers) never reaches readers. Parsed before the
 * converter runs: the converter reports what fails inside it as an empty document.
 */
export async function htmlToRichText(config: SanitizedConfig, html: string) {
  editorConfig ??= editorConfigFactory.default({ config })
  const sanitized = await editorConfig
  const document = parseHtml(html)
  // The converter makes an `<img>` an upload node naming no media item, which Payload then refuses
  // with a message about its own node: a description from another site would be refused whole.
  for (const image of document.querySelectorAll('img')) image.remove()
  // The converter fails on MathML's and SVG's elements, and a description with a formula came out
  // empty: what they show as text stays, as plain text; their styles, scripts and a formula's source
  // are nothing a reader sees.
  for (const foreign of document.querySelectorAll('math, svg')) {
    for (const hidden of foreign.querySelectorAll(UNSEEN)) hidden.remove()
    foreign.replaceWith(document.createTextNode(foreign.textContent ?? ''))
  }
  // What the converter asks of JSDOM: a window whose document is the HTML's, parsed above.
  const parsed = class {
    readonly window = { document }
  }
  const richText = convertHTMLToLexical({ editorConfig: sanitized, html, JSDOM: parsed })
  // Lists in lists make nodes in nodes: the field refuses those past its depth in its own terms.
  if (
    deeperThan<LexicalNode>(
      richText.root,
      (node) => (Array.isArray(node.children) ? node.children : undefined),
      MAX_RICH_TEXT_DEPTH,
    )
  )
    throw new UnreadableHtml(
      `Its lists or quotes are nested more than ${MAX_RICH_TEXT_DEPTH} deep.`,
    )
  return richText
}
