import { capabilities } from '../../calendar/access/capabilities'
import type { Organizer, Venue } from '../../payload-types'
import type { RestContext } from '../context'
import type { OrganizerInput, VenueInput } from '../schemas/write'
import { authoredData } from './common'
import { createInLanguage } from './localizedWrite'
import { customFieldData } from './customFieldInput'
import type { LinkedResource } from '../../calendar/resources'

export type LinkedKind = LinkedResource['key']

const VENUE_TEXT = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'] as const
const ORGANIZER_TEXT = ['phone', 'website', 'email'] as const

/** Payload data for a venue from the fields that were sent (partial on update). */
export async function venueData(ctx: RestContext, input: Partial<VenueInput>, operation: 'create' | 'update') {
  const data = { ...(await authoredData(ctx, input, ctx.settings.timezone, operation)), ...customFieldData(ctx, 'venues', input) }
  if (input.venue !== undefined) data.name = input.venue
  for (const field of VENUE_TEXT) if (input[field] !== undefined) data[field] = input[field] || null
  if (input.show_map !== undefined) data.showMap = input.show_map
  if (input.show_map_link !== undefined) data.showMapLink = input.show_map_link
  if (input.geo_lat !== undefined) data.geoLat = input.geo_lat === '' ? null : input.geo_lat
  if (input.geo_lng !== undefined) data.geoLng = input.geo_lng === '' ? null : input.geo_lng
  return data
}

export async function organizerData(ctx: RestContext, input: Partial<OrganizerInput>, operation: 'create' | 'update') {
  const data = { ...(await authoredData(ctx, input, ctx.settings.timezone, operation)), ...customFieldData(ctx, 'organizers', input) }
  if (input.organizer !== undefined) data.name = input.organizer
  for (const field of ORGANIZER_TEXT) if (input[field] !== undefined) data[field] = input[field] || null
  return data
}

const same = (a: unknown, b: unknown) =>
  String(a ?? '')
    .trim()
    .toLowerCase() ===
  String(b ?? '')
    .trim()
    .toLowerCase()

/**
 * An existing, untrashed record that a create would duplicate (docs/api.md §6.5): same name and,
 * among the other identifying fields, the same value for every one that was sent.
 */
async function findDuplicate(ctx: RestContext, kind: LinkedKind, input: VenueInput | OrganizerInput): Promise<number | undefined> {
  const name = kind === 'venues' ? (input as VenueInput).venue : (input as OrganizerInput).organizer
  const fields: readonly string[] = kind === 'venues' ? ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'] : ORGANIZER_TEXT
  const { docs } = await ctx.req.payload.find({
    collection: kind,
    req: ctx.req,
    locale: ctx.language,
    depth: 0,
    limit: 50,
    pagination: false,
    overrideAccess: true,
    where: { and: [{ name: { like: name } }, { status: { not_equals: 'trash' } }] },
  })
  const given = input as Record<string, unknown>
  // Only records the caller may see in full: answering with another one would hand over its content.
  const visible = (docs as (Venue | Organizer)[]).filter((doc) => (doc.status === 'publish' && !doc.hasPassword) || capabilities.edit(ctx.actor, doc))
  const match = visible.find(
    (doc) => same(doc.name, name) && fields.every((field) => !given[field] || same((doc as unknown as Record<string, unknown>)[field], given[field])),
  )
  return match?.id
}

/** Creates a venue or organizer, or answers the existing one it duplicates; both are a 201. */
export async function createLinked(ctx: RestContext, kind: LinkedKind, input: VenueInput | OrganizerInput, inheritStatus?: string): Promise<number> {
  const duplicate = await findDuplicate(ctx, kind, input)
  if (duplicate !== undefined) return duplicate
  const data = kind === 'venues' ? await venueData(ctx, input as VenueInput, 'create') : await organizerData(ctx, input as OrganizerInput, 'create')
  // Inline venues and organizers take the status of the event that brings them (docs/api.md §6.5).
  if (inheritStatus && (input as { status?: string }).status === undefined) data.status = inheritStatus
  return createInLanguage(ctx, kind, data)
}
