import { z } from 'zod'
import { nonEmptyString, positiveIntParam, stringListParam } from '../http/coerce'
import {
  givenPhpBooleanParam,
  idParam,
  languageParam,
  pageParams,
  readParams,
  phpBooleanParam,
} from './common'

/** `GET /venues` and `GET /organizers` (docs/api.md §7). */
export const linkedListParams = z.object({
  i18n_language: languageParam,
  ...pageParams,
  search: nonEmptyString()
    .optional()
    .describe(
      'Words that one field contains (name, description, excerpt, contact or address fields).',
    ),
  event: positiveIntParam().optional().describe('Only those linked to this event.'),
  has_events: givenPhpBooleanParam
    .optional()
    .describe('Only those with (true) or without (false) events.'),
  only_with_upcoming: phpBooleanParam
    .optional()
    .describe('Only those with published events still to come.'),
  status: stringListParam()
    .optional()
    .describe('Statuses; anyone but writers may ask for publish only.'),
})
export type LinkedListParams = z.output<typeof linkedListParams>

export const linkedByIdParams = readParams({ id: idParam })
