import { ORGANIZER_TEXT, VENUE_TEXT } from '../../calendar/linkedText'
import { authoredData } from '../authored/data'
import type { OrganizerInput, VenueInput } from '../authored/input'
import type { Writer } from '../writer'

/** Payload data for a venue from the fields that were sent (partial on update). */
export async function venueData(writer: Writer, input: VenueInput, operation: 'create' | 'update') {
  const data = await authoredData(writer, input, writer.settings.timezone, operation)
  if (input.venue !== undefined) data.name = input.venue
  for (const field of VENUE_TEXT) if (input[field] !== undefined) data[field] = input[field] || null
  if (input.show_map !== undefined) data.showMap = input.show_map
  if (input.show_map_link !== undefined) data.showMapLink = input.show_map_link
  if (input.geo_lat !== undefined) data.geoLat = input.geo_lat === '' ? null : input.geo_lat
  if (input.geo_lng !== undefined) data.geoLng = input.geo_lng === '' ? null : input.geo_lng
  return data
}

export async function organizerData(
  writer: Writer,
  input: OrganizerInput,
  operation: 'create' | 'update',
) {
  const data = await authoredData(writer, input, writer.settings.timezone, operation)
  if (input.organizer !== undefined) data.name = input.organizer
  for (const field of ORGANIZER_TEXT)
    if (input[field] !== undefined) data[field] = input[field] || null
  return data
}
