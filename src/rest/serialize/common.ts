import type { PermalinkKind } from '../../options'
import type { RestContext } from '../context'
import { wallClockOfInstant } from '../../calendar/dates/format'
import { permalinkUrl } from '../../calendar/permalinks'
import { messagesOf } from '../../i18n/messages'
import { plainText } from '../ical/text'
import { isEmptyValue } from '../http/jsonText'

// The namespace's serializers and handlers name it with the other helpers of this module.
export { idOf } from '../../calendar/relationId'

/** `date`, `date_utc`, `modified`, `modified_utc`: publication and change times, site zone and UTC. */
export function postDates(
  ctx: RestContext,
  doc: { publishedAt?: string | null; createdAt: string; updatedAt: string },
) {
  const published = doc.publishedAt ?? doc.createdAt
  return {
    date: wallClockOfInstant(published, ctx.settings.timezone),
    date_utc: wallClockOfInstant(published, 'UTC'),
    modified: wallClockOfInstant(doc.updatedAt, ctx.settings.timezone),
    modified_utc: wallClockOfInstant(doc.updatedAt, 'UTC'),
  }
}

/** Upstream's `global_id`: the site's host and path, then `?id=`; unique across sites that share data. */
export function globalIds(ctx: RestContext, id: number) {
  const globalId = `${siteOf(ctx)}?id=${id}`
  return { global_id: globalId, global_id_lineage: [globalId] }
}

/** The site's host and path, read once per request: a page names every event, venue and organizer it shows. */
const sites = new WeakMap<RestContext, string>()

function siteOf(ctx: RestContext): string {
  const known = sites.get(ctx)
  if (known !== undefined) return known
  const url = new URL(ctx.permalinkBase)
  const site = `${url.host}${url.pathname.replace(/\/+$/, '')}`
  sites.set(ctx, site)
  return site
}

/**
 * `{siteUrl}[/{lang}]` + the kind's pattern (`/event/{slug}/` by default, docs/api.md §3). A path of
 * slugs (a child category below its ancestors) fills `{slug}` with its segments: `music/jazz`.
 */
export function permalink(
  ctx: RestContext,
  kind: PermalinkKind,
  slug: string | null | undefined | string[],
) {
  return permalinkUrl(ctx.permalinkBase, ctx.calendar.permalinks[kind], slug)
}

/** A schema.org `name`: a private item's title says so, as WordPress's `get_the_title()` writes it, in the answer's language. */
export function schemaName(ctx: RestContext, doc: { status: string }, name: string): string {
  return doc.status === 'private' ? messagesOf(ctx.language).privateTitle(name) : name
}

/** WordPress trims an excerpt it makes from the content to this many words, then adds `EXCERPT_MORE`. */
const EXCERPT_WORDS = 55
const EXCERPT_MORE = ' […]'

/**
 * A schema.org `description`: the excerpt, else the description as plain text, its words on one line
 * and trimmed to an excerpt's length, as WordPress makes an excerpt from the content.
 */
export function schemaDescription(
  excerpt: string | null | undefined,
  html: string | null | undefined,
): string {
  const written = (excerpt ?? '').trim()
  if (written) return written
  const words = plainText(html ?? '')
    .split(/\s+/)
    .filter(Boolean)
  return words.length > EXCERPT_WORDS
    ? words.slice(0, EXCERPT_WORDS).join(' ') + EXCERPT_MORE
    : words.join(' ')
}

/** The event's own `json_ld` names its vocabulary; objects nested in it, and venues' and organizers' own, do not (as upstream). */
export function withSchemaContext<T extends object>(object: T) {
  return { '@context': 'http://schema.org', ...object }
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)
}

/** Excerpts are plain text in Payload; upstream serves them through `wpautop`, as paragraphs. */
export function excerptHtml(excerpt: string | null | undefined): string {
  const text = (excerpt ?? '').trim()
  if (!text) return ''
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\n/g, '<br />\n')}</p>`)
    .join('\n')
}

/**
 * `{ a: '', b: null, c: 'x' }` → `{ c: 'x' }`: venues and organizers omit every empty field, as
 * upstream's do (docs/api.md §3.3, §3.4). A number 0 is a value (a coordinate on the equator); the author "0" means none.
 */
export function withoutEmpty<T extends Record<string, unknown>>(object: T): Partial<T> {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(object)) if (!isEmptyValue(value)) kept[key] = value
  return kept as Partial<T>
}
