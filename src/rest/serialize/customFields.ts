import type { RestContext } from '../context'
import type { ExtensibleKind } from '../../options'
import { Category, Organizer, Tag, Venue } from '../schemas/responses'
import { EmbeddedTerm } from '../schemas/responseParts'

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  )
}

/** Events show developers' fields under `custom_fields` (docs/api.md §3.1): `[]` when none has a value. */
export function customFieldsOf(
  ctx: RestContext,
  doc: Record<string, unknown>,
): Record<string, { label: string; value: unknown }> | never[] {
  const shown: Record<string, { label: string; value: unknown }> = {}
  for (const field of ctx.calendar.customFields.events) {
    if (!isEmpty(doc[field.name]))
      shown[field.name] = { label: field.label, value: doc[field.name] }
  }
  return Object.keys(shown).length ? shown : []
}

const keysOf = (...shapes: { shape: object }[]) =>
  new Set(shapes.flatMap(({ shape }) => Object.keys(shape)))

/**
 * The keys of the venue, organizer and term objects themselves (docs/api.md §3.3, docs/api.md §3.4,
 * docs/api.md §3.5); a term's both as its route answers it and as events embed it.
 */
const WIRE_KEYS = {
  venues: keysOf(Venue),
  organizers: keysOf(Organizer),
  categories: keysOf(Category, EmbeddedTerm),
  tags: keysOf(Tag, EmbeddedTerm),
}

/**
 * Venues, organizers and terms show developers' fields as top-level keys (docs/api.md §3.3); a
 * field named like one of the object's own keys (`url`, `json_ld`, `id`…) is left out: the
 * object's key wins.
 */
export function extraKeysOf(
  ctx: RestContext,
  kind: Exclude<ExtensibleKind, 'events'>,
  doc: Record<string, unknown>,
): Record<string, unknown> {
  const extras: Record<string, unknown> = {}
  for (const { name } of ctx.calendar.customFields[kind])
    if (!WIRE_KEYS[kind].has(name)) extras[name] = doc[name]
  return extras
}
