import { compile } from 'html-to-text'

/** Headings keep the author's case: html-to-text upper-cases them by default, which reads as shouting in a calendar. */
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }))

/** Descriptions as text: paragraphs, headings and list items on their own lines, links with their address, no images. */
const toText = compile({
  wordwrap: false,
  selectors: [...HEADINGS, { selector: 'a', options: { hideLinkHrefIfSameAsText: true } }, { selector: 'img', format: 'skip' }],
})

/** DESCRIPTION is plain text (RFC 5545): the description's HTML read as text. */
export function plainText(html: string): string {
  return toText(html).trim()
}
