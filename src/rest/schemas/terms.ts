import { z } from 'zod'
import { booleanParam, idListParam, nonEmptyString, positiveIntParam } from '../http/coerce'
import { idParam, languageParam, pageParams } from './common'

export const TERM_ORDERBY = ['id', 'name', 'slug', 'count', 'description', 'term_group'] as const

export const categoryListParams = z.object({
  i18n_language: languageParam,
  ...pageParams,
  search: nonEmptyString().optional().describe('Text that the name or slug contains.'),
  exclude: idListParam().optional().describe('Ids to leave out.'),
  include: idListParam().optional().describe('Only these ids; each must exist.'),
  order: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.toLowerCase() : value),
      z.enum(['asc', 'desc'], { error: 'Must be asc or desc.' }),
    )
    .optional()
    .describe('Sort direction.'),
  orderby: z
    .enum(TERM_ORDERBY, { error: `Must be one of: ${TERM_ORDERBY.join(', ')}.` })
    .optional()
    .describe('Attribute to sort by; name by default.'),
  hide_empty: booleanParam().default(true).describe('Hide terms that no published event uses.'),
  parent: positiveIntParam().optional().describe('Children of this category; it must exist.'),
  post: positiveIntParam().optional().describe('Terms of this event.'),
  event: positiveIntParam().optional().describe('Alias of post; wins when both are given.'),
  slug: nonEmptyString().optional().describe('The term with this slug.'),
})
export type TermListParams = z.output<typeof categoryListParams>

export const tagListParams = categoryListParams.omit({ parent: true })

export const termByIdParams = z.object({ i18n_language: languageParam, id: idParam })
