import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { convertLexicalToPlaintext } from '@payloadcms/richtext-lexical/plaintext'
import type { SEOPluginConfig } from '@payloadcms/plugin-seo/types'
import type { Field, PayloadRequest } from 'payload'
import { permalinkBase, permalinkUrl } from '../calendar/permalinks'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import { siteSettings } from '../globals/siteSettings'
import { calendarRuntime } from '../options'
import { requestOrigin } from './clientAddress'
import { slugBase } from './fields/slug'

/** Search engines show about this much of a description. */
const DESCRIPTION_LENGTH = 155

/** What `@payloadcms/plugin-seo` hands a generator: the form's values as they are being edited. */
type EditedEvent = {
  title?: string
  slug?: string
  excerpt?: string
  description?: SerializedEditorState | null
  image?: number | { id: number } | null
}
type Generator<T> = (args: {
  doc: EditedEvent
  locale?: string
  req: PayloadRequest
}) => T | Promise<T>

/** Cut at a word boundary, with an ellipsis, when the text is longer than search engines show. */
function clip(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= DESCRIPTION_LENGTH) return clean
  const cut = clean.slice(0, DESCRIPTION_LENGTH - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_LENGTH / 2)).trimEnd()}…`
}

/**
 * The preview drawn with the edit view (`components/SeoPreview.tsx`), its permalink found by
 * `generateURL` on the server: the plugin's own asks for it after the page has loaded.
 */
const SEO_PREVIEW = 'cal-events/rsc#SeoPreview'

const withServerPreview = (field: Field): Field =>
  'name' in field && field.name === 'preview' && field.type === 'ui'
    ? { ...field, admin: { ...field.admin, components: { Field: SEO_PREVIEW } } }
    : field

/**
 * The SEO fields' suggestions for events (docs/api.md §3): the URL preview is the event's permalink
 * in the language being edited, as the namespace serves it in `url` (a slug still to be generated is
 * previewed from the title); the title is the event's; the description its excerpt, else the start
 * of its description as plain text; the image its featured image.
 */
export const eventSeo: {
  generateURL: Generator<string>
  generateTitle: Generator<string>
  generateDescription: Generator<string>
  generateImage: Generator<number | string>
  fields: SEOPluginConfig['fields']
} = {
  generateURL: async ({ doc, locale, req }) => {
    const settings = await siteSettings(req)
    const server =
      req.payload.config.serverURL ||
      requestOrigin(req.headers) ||
      (req.url ? new URL(req.url).origin : '')
    const slug = doc.slug || (doc.title ? slugBase(doc.title) : '')
    return permalinkUrl(
      permalinkBase(settings.siteUrl, server, locale || DEFAULT_LANGUAGE),
      calendarRuntime(req.payload.config).permalinks.event,
      slug,
    )
  },
  generateTitle: ({ doc }) => String(doc.title ?? '').trim(),
  generateDescription: ({ doc }) =>
    clip(
      doc.excerpt?.trim() ||
        (doc.description ? convertLexicalToPlaintext({ data: doc.description }) : ''),
    ),
  generateImage: ({ doc }) =>
    typeof doc.image === 'object' && doc.image ? doc.image.id : (doc.image ?? ''),
  fields: ({ defaultFields }) => defaultFields.map(withServerPreview),
}
