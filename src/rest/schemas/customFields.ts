import { z } from 'zod'
import type { AuthoredResource } from '../../calendar/resources'
import type { CustomField, ExtensibleKind } from '../../options'
import type { RestContext } from '../context'
import { booleanParam } from '../http/coerce'
import { RestError } from '../../server/errors'
import { idParam, numberParam } from './common'

type Kind = AuthoredResource['key']

/** A named group's or named tab's value: an object of its fields' values. */
export const OBJECT_TYPES = new Set(['group', 'tab'])

/** Null or empty: no value. */
const clear = z.union([z.null(), z.literal('')]).transform(() => null)

/**
 * A list field's values (a `hasMany` text, number or select): a list, or one value as a list of one,
 * as a form sends `name=a` for one and `name[]=a&name[]=b` for more; null or empty clears it.
 */
function listSchema(field: CustomField): z.ZodType {
  const [one, each] = field.options
    ? [z.enum(field.options as [string, ...string[]]), `one of: ${field.options.join(', ')}`]
    : field.type === 'number'
      ? [numberParam(-Number.MAX_VALUE, Number.MAX_VALUE), 'a number']
      : [z.string(), 'a string']
  return z.union([clear, z.array(one), one.transform((value) => [value])], {
    error: `Must be a list, each value ${each}.`,
  })
}

/** How a value sent for a developer's field is read, by its Payload type; null or empty clears it. */
function schemaFor(field: CustomField): z.ZodType {
  if (field.hasMany) return listSchema(field)
  if (field.options)
    return z.union([
      clear,
      z.enum(field.options as [string, ...string[]], {
        error: `Must be one of: ${field.options.join(', ')}.`,
      }),
    ])
  if (field.type === 'number')
    return z.union([clear, numberParam(-Number.MAX_VALUE, Number.MAX_VALUE)], {
      error: 'Must be a number.',
    })
  if (field.type === 'checkbox') return booleanParam()
  if (['text', 'textarea', 'email', 'code'].includes(field.type))
    return z.union([z.null().transform(() => ''), z.string()], { error: 'Must be a string.' })
  // Its own fields read as top-level ones are (a form's `access[ramp]=1` is true); others pass to Payload.
  if (OBJECT_TYPES.has(field.type)) return objectSchema(field.fields ?? [])
  // Rows as a form sends them (`items[0][done]=1`), each read as an object is; none clears the field.
  if (field.type === 'array' && field.fields)
    return rows(z.array(objectSchema(field.fields), { error: 'Must be a list of rows.' }))
  if (field.type === 'blocks' && field.blocks?.length) return rows(blocksSchema(field.blocks))
  // A form's "12" is the id 12; other text is left to Payload (a collection of text ids), which names
  // the field when no such item exists.
  const id = z.union([idParam, z.string().min(1)])
  if (field.linksTo === 'one') return z.union([clear, id], { error: 'Must be an id.' })
  if (field.linksTo === 'many')
    return z.union([clear, z.array(id), id.transform((one) => [one])], {
      error: 'Must be a list of ids.',
    })
  return z.unknown()
}

/** A field that holds rows: null or empty is none. */
const rows = (list: z.ZodType) =>
  z.preprocess((value) => (value === null || value === '' ? [] : value), list)

/** The values of `fields`, each read as a top-level field is. */
const shapeOf = (fields: CustomField[]) =>
  Object.fromEntries(fields.map((inner) => [inner.name, schemaFor(inner).optional()]))

/** An object of `fields`' values; keys it does not name pass to Payload. */
const objectSchema = (fields: CustomField[]) =>
  z.looseObject(shapeOf(fields), { error: 'Must be an object.' })

/** A blocks field's rows: each names its block (`blockType`) and holds that block's fields. */
function blocksSchema(blocks: NonNullable<CustomField['blocks']>): z.ZodType {
  const [first, ...rest] = blocks.map((block) =>
    z.looseObject({ blockType: z.literal(block.slug), ...shapeOf(block.fields) }),
  )
  const kinds = blocks.map((block) => block.slug).join(', ')
  return z.array(
    z.discriminatedUnion('blockType', [first!, ...rest], {
      error: `Must be an object whose blockType is one of: ${kinds}.`,
    }),
    { error: 'Must be a list of blocks.' },
  )
}

/**
 * The developers' fields that a write sent, read by their Payload type: a number field refuses
 * "abc" with a 400 naming it, before anything is written.
 */
export function readCustomFields(
  ctx: RestContext,
  kind: ExtensibleKind,
  input: Record<string, unknown>,
): { data: Record<string, unknown>; invalid: Record<string, string> } {
  const data: Record<string, unknown> = {}
  const invalid: Record<string, string> = {}
  for (const field of ctx.calendar.customFields[kind]) {
    if (field.readOnly || input[field.name] === undefined) continue
    const parsed = schemaFor(field).safeParse(input[field.name])
    if (parsed.success) data[field.name] = parsed.data
    else {
      // A value inside a group or tab is named by its path, as Payload names it (`access.ramp`).
      const [issue] = parsed.error.issues
      invalid[[field.name, ...(issue?.path ?? [])].join('.')] = issue?.message ?? 'Invalid value.'
    }
  }
  return { data, invalid }
}

const INLINE = { venue: 'venues', organizer: 'organizers' } as const

/**
 * A write's fields with the developers' fields read into `custom`, those of the venues and organizers
 * an event gives inline too. A value that does not read is a 400 naming it (inline: naming the
 * event's parameter), before anything is written.
 */
export function withCustomFields<T extends Record<string, unknown>>(
  ctx: RestContext,
  kind: ExtensibleKind,
  input: T,
): T & { custom: Record<string, unknown> } {
  const { data, invalid } = readCustomFields(ctx, kind, input)
  if (Object.keys(invalid).length) throw RestError.invalidParams(invalid)
  const inline: Record<string, unknown> = {}
  if (kind === 'events')
    for (const [param, linked] of Object.entries(INLINE))
      if (input[param] !== undefined) inline[param] = inlineWith(ctx, param, linked, input[param])
  return { ...input, ...inline, custom: data }
}

function inlineWith(ctx: RestContext, param: string, kind: Kind, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((entry) => inlineWith(ctx, param, kind, entry))
  if (!value || typeof value !== 'object') return value
  const { data, invalid } = readCustomFields(ctx, kind, value as Record<string, unknown>)
  const problems = Object.entries(invalid).map(([name, message]) => `${name}: ${message}`)
  if (problems.length) throw RestError.invalidParams({ [param]: problems.join(' ') })
  return { ...value, custom: data }
}
