import { z } from 'zod'

/**
 * Request-parameter schemas. Query strings and form bodies only carry strings while JSON bodies carry
 * real types, so each schema accepts both spellings, outputs one canonical type, and keeps its accepted
 * input forms visible to `z.toJSONSchema(schema, { io: 'input' })` for the OpenAPI document.
 * The error messages are written to be shown as `data.params[name]` of a `rest_invalid_param` error.
 */

const BOOLEAN_MESSAGE = 'Must be a boolean: true, false, 1 or 0.'
const POSITIVE_INT_MESSAGE = 'Must be a positive integer.'
const LIST_MESSAGE = 'Must be a non-empty list: an array or a comma-separated string.'
const NON_EMPTY_STRING_MESSAGE = 'Must be a non-empty string.'

/** Ids are Postgres `integer` columns: a larger number cannot name a record and would make the query fail. */
const MAX_INT = 2_147_483_647

/** WordPress's boolean forms (`rest_is_boolean`): `"yes"`, `"on"` and `""` are not booleans. */
export function booleanParam() {
  return z.preprocess(
    lowercaseString,
    z
      .union([z.boolean(), z.literal([1, 0]), z.enum(['true', 'false', '1', '0'])], {
        error: BOOLEAN_MESSAGE,
      })
      .transform((value) => value === true || value === 1 || value === 'true' || value === '1'),
  )
}

function lowercaseString(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value
}

/** Page numbers, page sizes and ids: `"1.5"`, `"-1"`, `"0"`, `" 1"` and `"1e3"` are refused, as upstream refuses them. */
export function positiveIntParam() {
  return z.union([positiveInt(), positiveIntText()], { error: POSITIVE_INT_MESSAGE })
}

function positiveInt() {
  return z.int(POSITIVE_INT_MESSAGE).min(1, POSITIVE_INT_MESSAGE).max(MAX_INT, POSITIVE_INT_MESSAGE)
}

function positiveIntText() {
  return z.string().regex(/^\d+$/, POSITIVE_INT_MESSAGE).transform(Number).pipe(positiveInt())
}

/** `[1, "2"]`, `"1, 2,3"` or a single `3` → `[1, 2, 3]`; an empty list is refused. */
export function idListParam() {
  // Entries arrive as text: the list has already turned JSON numbers into strings.
  return listParam().pipe(z.array(positiveIntText()).min(1, LIST_MESSAGE))
}

/** `["a", "b"]` or `"a, b"` → `["a", "b"]`, entries trimmed and empty ones dropped; an empty list is refused. */
export function stringListParam() {
  return listParam().pipe(z.array(z.string()).min(1, LIST_MESSAGE))
}

export function nonEmptyString() {
  return z.string(NON_EMPTY_STRING_MESSAGE).min(1, NON_EMPTY_STRING_MESSAGE)
}

/**
 * A list given as an array, a comma-separated string or a single number, as its trimmed non-empty entries.
 * Only a string is split: an array entry is one value even with commas in it (a new tag's name may have one).
 */
function listParam() {
  const entry = z.union([z.string(), z.number()])
  return z.union([entry, z.array(entry)], { error: LIST_MESSAGE }).transform(listEntries)
}

function listEntries(value: string | number | (string | number)[]): string[] {
  const entries = Array.isArray(value) ? value.map(String) : String(value).split(',')
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '')
}
