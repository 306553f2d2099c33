import { servedWebUrl } from '../../calendar/webUrl'
import type { Organizer } from '../../payload-types'
import type { RestContext } from '../context'
import { schemaDescription, schemaName, withoutEmpty } from './common'
import { linkedSerializer } from './linked'

/**
 * schema.org Person of an organizer, without `@context`, in its own `json_ld` as in an event's
 * `organizer` (as upstream). Its `url` is the organizer's website, as upstream's, not the permalink.
 */
export function organizerJsonLd(ctx: RestContext, organizer: Organizer) {
  return {
    '@type': 'Person',
    name: schemaName(ctx, organizer, organizer.name),
    // Always present, as upstream's, even empty.
    description: schemaDescription(organizer.excerpt, organizer.descriptionHtml),
    ...withoutEmpty({
      url: servedWebUrl(organizer.website),
      telephone: organizer.phone,
      email: organizer.email,
      sameAs: servedWebUrl(organizer.website),
    }),
  }
}

/** The organizer object of docs/api.md §3.4, written as JSON: empty fields omitted, content withheld while locked. */
export const serializeOrganizer = linkedSerializer<Organizer>('organizer', {
  own: (shown) => ({
    phone: shown.phone,
    website: servedWebUrl(shown.website),
    email: shown.email,
  }),
  jsonLd: organizerJsonLd,
})
