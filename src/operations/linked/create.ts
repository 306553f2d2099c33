import { capabilities } from '../../calendar/access/capabilities'
import type { LinkedResource } from '../../calendar/resources'
import type { Organizer, Venue } from '../../payload-types'
import type { OrganizerInput, VenueInput } from '../authored/input'
import { createInLanguage, type WrittenDoc } from '../localizedWrite'
import { holdName } from '../../database/nameLocks'
import { Refusal } from '../refusal'
import type { Writer } from '../writer'
import { ORGANIZER_TEXT } from '../../calendar/linkedText'
import { organizerData, venueData } from './data'

export type LinkedKind = LinkedResource['key']

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
async function findDuplicate(
  writer: Writer,
  kind: LinkedKind,
  input: VenueInput | OrganizerInput,
): Promise<number | undefined> {
  const name = kind === 'venues' ? (input as VenueInput).venue : (input as OrganizerInput).organizer
  const fields: readonly string[] =
    kind === 'venues'
      ? ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone']
      : ORGANIZER_TEXT
  await holdName(writer.req, kind, writer.language, name ?? '')
  const { docs } = await writer.req.payload.find({
    collection: kind,
    req: writer.req,
    locale: writer.language,
    depth: 0,
    limit: 50,
    pagination: false,
    overrideAccess: false,
    where: { and: [{ name: { like: name } }, { status: { not_equals: 'trash' } }] },
  })
  const given = input as Record<string, unknown>
  // Only records the caller may see in full (read with their access, which a developer may narrow):
  // answering with another one would hand over its content.
  const visible = (docs as (Venue | Organizer)[]).filter(
    (doc) => (doc.status === 'publish' && !doc.hasPassword) || capabilities.edit(writer.actor, doc),
  )
  const match = visible.find(
    (doc) =>
      same(doc.name, name) &&
      fields.every(
        (field) =>
          !given[field] || same((doc as unknown as Record<string, unknown>)[field], given[field]),
      ),
  )
  return match?.id
}

/**
 * Creates a venue or organizer inside the write under way (an event's inline one, or the route's
 * own), or answers the existing one it duplicates.
 */
export async function createLinkedIn(
  writer: Writer,
  kind: LinkedKind,
  input: VenueInput | OrganizerInput,
  inheritStatus?: string,
): Promise<number> {
  const made = await createdOrFound(writer, kind, input, inheritStatus)
  return typeof made === 'number' ? made : made.id
}

/**
 * The venue or organizer a create makes, as Payload answered its write (made with the writer's
 * access), or the id of the existing one it duplicates.
 */
export async function createdOrFound(
  writer: Writer,
  kind: LinkedKind,
  input: VenueInput | OrganizerInput,
  inheritStatus?: string,
): Promise<number | WrittenDoc> {
  // Trashing unlinks an item from every event (docs/api.md §6.7): one made in the trash and linked would be both.
  if ((input as { status?: string }).status === 'trash')
    throw Refusal.invalidParams({ status: 'An item given inline cannot be made in the trash.' })
  const duplicate = await findDuplicate(writer, kind, input)
  if (duplicate !== undefined) return duplicate
  const data =
    kind === 'venues'
      ? await venueData(writer, input as VenueInput, 'create')
      : await organizerData(writer, input as OrganizerInput, 'create')
  // Inline venues and organizers take the status of the event that brings them (docs/api.md §6.5).
  if (inheritStatus && (input as { status?: string }).status === undefined)
    data.status = inheritStatus
  return createInLanguage(writer, kind, data)
}
