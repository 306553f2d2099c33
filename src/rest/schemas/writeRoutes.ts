import { z } from 'zod'
import { idParam, languageParam, slugParam } from './common'
import { eventWriteFields, organizerWriteFields, venueWriteFields } from './write'

/** The id or slug that names the item of a by-id or by-slug route. */
export const itemParams = {
  id: z.object({ i18n_language: languageParam, id: idParam }),
  slug: z.object({ i18n_language: languageParam, slug: slugParam }),
}

/** Loose: fields a developer added to the collection pass through to Payload, which validates them. */
function writeSchemasOf<F extends z.ZodRawShape>(fields: F) {
  const partial = z.looseObject(fields).partial()
  return {
    create: z.looseObject(fields),
    update: {
      id: partial.extend({ id: idParam }),
      slug: partial.extend({
        slug: slugParam.describe(
          'Slug naming the item, in the request language or English; a `slug` in the body renames it.',
        ),
      }),
    },
  }
}

/** Create bodies require the name (and an event's dates); updates require nothing (docs/api.md §6.1). */
export const writeSchemas = {
  events: writeSchemasOf(eventWriteFields),
  venues: writeSchemasOf(venueWriteFields),
  organizers: writeSchemasOf(organizerWriteFields),
}
