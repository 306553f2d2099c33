import { compile } from 'html-to-text'
import { boundedCache } from '../../calendar/caches'

/** Headings keep the author's case: html-to-text upper-cases them by default, which reads as shouting in a calendar. */
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
  selector,
  options: { uppercase: false },
}))

/** Descriptions as text: paragraphs, headings and list items on their own lines, links with their address, no images. */
const toText = compile({
  wordwrap: false,
  selectors: [
    ...HEADINGS,
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
  ],
})

/**
 * Paragraphs of plain words only: no markup inside, no entity, no whitespace but single spaces between
 * words (html-to-text collapses the rest, the zero-width space among it). Their text is the words, a
 * blank line between paragraphs, which is what html-to-text makes of them without building a DOM.
 */
const PLAIN_PARAGRAPHS = /^(?:<p>[^\s<>&\u200b]+(?: [^\s<>&\u200b]+)*<\/p>)+$/

/** Descriptions already read, by their HTML: a feed after a write reads the same descriptions again. */
const texts = boundedCache<string, string>('plainTexts')

/** Longer descriptions are read each time: the cache's memory stays bounded by its entries. */
const KEPT_LENGTH = 2048

/** DESCRIPTION is plain text (RFC 5545): the description's HTML read as text. */
export function plainText(html: string): string {
  if (PLAIN_PARAGRAPHS.test(html)) return html.slice(3, -4).split('</p><p>').join('\n\n')
  const known = texts.get(html)
  if (known !== undefined) return known
  const text = toText(html).trim()
  if (html.length <= KEPT_LENGTH) texts.set(html, text)
  return text
}
