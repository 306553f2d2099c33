import type { RestContext } from '../context'
import type { AuthoredResource } from '../../calendar/resources'

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

/** Venues and organizers show developers' fields as top-level keys (docs/api.md §3.3). */
export function extraKeysOf(
  ctx: RestContext,
  kind: Exclude<Kind, 'events'>,
  doc: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    ctx.calendar.customFields[kind].map((field) => [field.name, doc[field.name]]),
  )
}
