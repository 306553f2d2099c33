import { z } from 'zod'
import { positiveIntParam } from '../http/coerce'
import { languageParam } from './common'

/** The most changes one page of the feed holds (docs/api.md §18). */
export const MAX_CHANGES_PER_PAGE = 500

/** A cursor as the feed hands it out: the last change's number and when the cursor was issued. */
export const CURSOR = /^(\d{1,19})\.(\d{1,12})$/
const MAX_BIGINT = 2n ** 63n - 1n

export const changesParams = z.object({
  i18n_language: languageParam,
  since: z
    .string()
    .regex(new RegExp(`^now$|${CURSOR.source}`), {
      error: 'A next_cursor from an earlier answer, or now.',
    })
    // A sequence is a PostgreSQL bigint: 19 digits may pass it.
    .refine((since) => BigInt(CURSOR.exec(since)?.[1] ?? 0) <= MAX_BIGINT, {
      error: 'A next_cursor from an earlier answer, or now.',
    })
    .optional()
    .describe(
      'Where to resume: a `next_cursor`, `now` for a cursor only, or omitted for every change kept.',
    ),
  per_page: positiveIntParam()
    .refine((value) => value <= MAX_CHANGES_PER_PAGE, { error: `At most ${MAX_CHANGES_PER_PAGE}.` })
    .optional()
    .describe(`Changes per page: 100 by default, at most ${MAX_CHANGES_PER_PAGE}.`),
})
export type ChangesParams = z.output<typeof changesParams>
