import type { RestContext } from '../context'
import type { AuthoredResource } from '../../calendar/resources'
import { Organizer, Venue } from '../schemas/responses'

type Kind = AuthoredResource['key']

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

/** The keys of the venue and organizer objects themselves (docs/api.md §3.3, §3.4). */
const WIRE_KEYS = {
  venues: new Set(Object.keys(Venue.shape)),
  organizers: new Set(Object.keys(Organizer.shape)),
}

/**
 * Venues and organizers show developers' fields as top-level keys (docs/api.md §3.3); a field named
 * like one of the object's own keys (`url`, `json_ld`, `id`…) is left out: the object's key wins.
 */
export function extraKeysOf(
  ctx: RestContext,
  kind: Exclude<Kind, 'events'>,
  doc: Record<string, unknown>,
): Record<string, unknown> {
  const extras: Record<string, unknown> = {}
  for (const { name } of ctx.calendar.customFields[kind])
    if (!WIRE_KEYS[kind].has(name)) extras[name] = doc[name]
  return extras
}
