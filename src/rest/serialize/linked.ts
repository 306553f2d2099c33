import type { Organizer, Venue } from '../../payload-types'
import type { Related } from '../../operations/related'
import type { RestContext } from '../context'
import { excerptHtml, idOf, permalink, postDates } from './common'
import { serializeImage } from './image'
import { extraKeysOf } from './customFields'
import { JsonObjectWriter } from '../http/jsonText'

export type LinkedOptions = { single?: boolean; unlocked?: boolean }

/**
 * What a venue and an organizer begin with, in upstream's key order, their name under their own key
 * (`venue`, `organizer`), empty fields left out; `shown` is the item while its content is not
 * withheld by a password.
 */
export function linkedHead(
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

/** Developers' fields of a venue or organizer while shown, as top-level keys (docs/api.md §3.3), empty ones left out. */
export function linkedExtras(
  ctx: RestContext,
  out: JsonObjectWriter,
  kind: 'venues' | 'organizers',
  shown: Venue | Organizer | undefined,
): void {
  if (shown)
    for (const [key, value] of Object.entries(
      extraKeysOf(ctx, kind, shown as unknown as Record<string, unknown>),
    ))
      out.addNonEmpty(key, value)
}
