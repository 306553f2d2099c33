import { z } from 'zod'
import { LANGUAGES } from '../../i18n/languages'
import { readValidDateInput } from '../../calendar/dates/parse'
import { nonEmptyString, positiveIntParam } from '../http/coerce'

const LANGUAGE_CODES = LANGUAGES.map((language) => language.code) as [string, ...string[]]

/** Accepted on every route, in the query or the body (docs/api.md §10). */
export const languageParam = z
  .enum(LANGUAGE_CODES, { error: `Must be one of: ${LANGUAGE_CODES.join(', ')}.` })
  .optional()
  .describe(
    'Language of the response and of written values; defaults to the language root, else en.',
  )

/** A date in any form upstream accepts (docs/api.md §4.2); the handler interprets it in the right zone. */
export function dateParam(description: string) {
  return z
    .union([z.string(), z.number()])
    .refine((value) => readValidDateInput(value) !== null, {
      error: 'Invalid date.',
    })
    .describe(description)
}

/**
 * A bound of a list's date window (docs/api.md §4.2), read here once as a typed `DateInput` that the
 * window places on the site's clock; refused as `dateParam` refuses, by the same check.
 */
export function dateInputParam(description: string) {
  return z
    .union([z.string(), z.number()])
    .transform((value, ctx) => {
      const input = readValidDateInput(value)
      if (input) return input
      ctx.issues.push({ code: 'custom', message: 'Invalid date.', input: value })
      return z.NEVER
    })
    .describe(description)
}

/** A parameter a request may leave out, with what it does, as the index and `/doc` show it. */
export function optionalParam<T extends z.ZodType>(param: T, description: string) {
  return param.optional().describe(description)
}

export const pageParams = {
  page: positiveIntParam().default(1).describe('Page of results, from 1.'),
  per_page: positiveIntParam()
    .optional()
    .describe('Items per page: the site setting by default (10), at most 50.'),
}

export const idParam = positiveIntParam().describe('Numeric id.')
export const slugParam = nonEmptyString().describe('Slug, in the request language or English.')
export const passwordParam = nonEmptyString().optional().describe('Password of a protected item.')
export const contextParam = z
  .enum(['view', 'edit'])
  .optional()
  .describe('`edit` unlocks protected content for users who may edit it.')

/** A single read's parameters: the item (`{ id }` or `{ slug }`), its password, the context. */
export function readParams<T extends z.ZodRawShape>(item: T) {
  return z.object({
    i18n_language: languageParam,
    ...item,
    password: passwordParam,
    context: contextParam,
  })
}

export const bySlugParams = readParams({ slug: slugParam })

/** PHP's boolean filter: `true`, `1`, `yes`, `on` are true, any other text false (upstream `strict_dates`). */
export const phpBooleanParam = z.union([z.string(), z.boolean(), z.number()]).transform(phpBoolean)

/** A PHP boolean with the text the client sent: upstream echoes such untyped parameters in `rest_url` as given. */
export const givenPhpBooleanParam = z
  .union([z.string(), z.boolean(), z.number()])
  .transform((value) => ({ value: phpBoolean(value), given: String(value) }))

function phpBoolean(value: string | boolean | number): boolean {
  return ['true', '1', 'yes', 'on'].includes(String(value).trim().toLowerCase())
}

/** A number from a JSON number or its text, within bounds. */
export function numberParam(min: number, max: number) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+(\.\d+)?$/, 'Must be a number.')
          .transform(Number),
      ],
      { error: 'Must be a number.' },
    )
    .pipe(z.number().min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`))
}

/** The namespace index's own arguments, as WordPress declares them. */
export const indexParams = z.object({
  i18n_language: languageParam,
  namespace: z.string().optional().describe('The namespace to describe.'),
  context: z
    .enum(['view', 'edit'])
    .default('view')
    .describe('Scope under which the request is made.'),
})
