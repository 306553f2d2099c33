import type { Organizer, Venue } from '../../payload-types'
import type { Related } from '../../operations/related'
import type { RestContext } from '../context'
import { excerptHtml, idOf, permalink, postDates } from './common'
import { serializeImage } from './image'

export type LinkedOptions = { single?: boolean; unlocked?: boolean }

/**
 * What a venue and an organizer begin with, in upstream's key order, their name under their own key
 * (`venue`, `organizer`); `shown` is the item while its content is not withheld by a password.
 */
export function linkedHead<Kind extends 'venue' | 'organizer'>(
  ctx: RestContext,
  kind: Kind,
  item: Venue | Organizer,
  shown: Venue | Organizer | undefined,
  related: Related,
) {
  return {
    id: item.id,
    author: String(idOf(item.author) ?? 0),
    status: item.status,
    ...postDates(ctx, item),
    url: permalink(ctx, kind, item.slug),
    ...({ [kind]: item.name } as Record<Kind, string>),
    description: shown?.descriptionHtml,
    excerpt: excerptHtml(shown?.excerpt),
    slug: item.slug,
    image: shown && serializeImage(ctx, related.media.get(idOf(shown.image) ?? 0)),
  }
}
