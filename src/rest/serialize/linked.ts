import type { Organizer, Venue } from '../../payload-types'
import type { Related } from '../../operations/related'
import type { RestContext } from '../context'
import { excerptHtml, globalIds, idOf, permalink, postDates } from './common'
import { serializeImage } from './image'
import { extraKeysOf } from './customFields'
import { JsonObjectWriter, type JsonText } from '../http/jsonText'

export type LinkedOptions = { single?: boolean; unlocked?: boolean }

/** What a venue or an organizer writes of its own around the keys they share (docs/api.md §3.3, §3.4). */
export type LinkedParts<T> = {
  /** Its own fields after the shared head, empty ones left out; only while its content is shown. */
  own: (shown: T) => Record<string, unknown>
  /** Its schema.org object, on single reads while its content is shown. */
  jsonLd: (ctx: RestContext, shown: T) => unknown
  /** Keys always written after `json_ld`, before the global ids. */
  tail?: (item: T, locked: boolean) => Record<string, unknown>
}

/** A venue's or an organizer's serializer, the same call for both wherever they are written. */
export type LinkedSerializer<T> = (
  ctx: RestContext,
  item: T,
  related: Related,
  options?: LinkedOptions,
) => JsonText

/**
 * The serializer of the venue or organizer object, written as JSON in upstream's key order: the head
 * they share, their own fields, developers' fields, `json_ld`, their tail and the global ids. Empty
 * fields are left out; a protected one keeps its name but not its content unless unlocked.
 */
export function linkedSerializer<T extends Venue | Organizer>(
  kind: 'venue' | 'organizer',
  parts: LinkedParts<T>,
): LinkedSerializer<T> {
  return (ctx, item, related, options = {}) => {
    const locked = Boolean(item.hasPassword) && !options.unlocked
    const shown = locked ? undefined : item
    const out = linkedHead(ctx, kind, item, shown, related)
    if (shown) {
      out.addAll(parts.own(shown), true)
      const extras = extraKeysOf(ctx, `${kind}s`, shown as unknown as Record<string, unknown>)
      out.addAll(extras, true)
    }
    out.addNonEmpty('json_ld', options.single && shown ? parts.jsonLd(ctx, shown) : undefined)
    if (parts.tail) out.addAll(parts.tail(item, locked))
    return out.addAll(globalIds(ctx, item.id)).done()
  }
}

/**
 * What a venue and an organizer begin with, in upstream's key order, their name under their own key
 * (`venue`, `organizer`), empty fields left out; `shown` is the item while its content is not
 * withheld by a password.
 */
function linkedHead(
  ctx: RestContext,
  kind: 'venue' | 'organizer',
  item: Venue | Organizer,
  shown: Venue | Organizer | undefined,
  related: Related,
): JsonObjectWriter {
  return new JsonObjectWriter()
    .addNonEmpty('id', item.id)
    .addNonEmpty('author', String(idOf(item.author) ?? 0))
    .addNonEmpty('status', item.status)
    .addAll(postDates(ctx, item), true)
    .addNonEmpty('url', permalink(ctx, kind, item.slug))
    .addNonEmpty(kind, item.name)
    .addNonEmpty('description', shown?.descriptionHtml)
    .addNonEmpty('excerpt', excerptHtml(shown?.excerpt))
    .addNonEmpty('slug', item.slug)
    .addNonEmpty('image', shown && serializeImage(ctx, related.media.get(idOf(shown.image) ?? 0)))
}
