import { compile } from 'html-to-text'

/** Descriptions as text: paragraphs and list items on their own lines, links with their address, no images. */
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
  ],
})

/** DESCRIPTION is plain text (RFC 5545): the description's HTML read as text. */
export function plainText(html: string): string {
  return toText(html).trim()
}
