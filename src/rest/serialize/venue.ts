import { servedWebUrl } from '../../calendar/webUrl'
import type { Venue } from '../../payload-types'
import type { RestContext } from '../context'
import { permalink, schemaDescription, schemaName, withoutEmpty } from './common'
import { linkedSerializer } from './linked'

/** schema.org Place of a venue, without `@context`, in its own `json_ld` as in an event's `location` (as upstream). */
export function venueJsonLd(ctx: RestContext, venue: Venue) {
  return {
    '@type': 'Place',
    name: schemaName(ctx, venue, venue.name),
    // Always present, as upstream's, even empty.
    description: schemaDescription(venue.excerpt, venue.descriptionHtml),
    ...withoutEmpty({
      url: permalink(ctx, 'venue', venue.slug),
      address: withoutEmpty({
        '@type': 'PostalAddress',
        streetAddress: venue.address,
        addressLocality: venue.city,
        addressRegion: venue.stateprovince,
        postalCode: venue.zip,
        addressCountry: venue.country,
      }),
      geo:
        venue.geoLat != null && venue.geoLng != null
          ? { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng }
          : undefined,
      telephone: venue.phone,
      sameAs: servedWebUrl(venue.website),
    }),
  }
}

/**
 * The venue object of docs/api.md §3.3, embedded in events and answered by the venue routes alike,
 * written as JSON. Empty fields are omitted; a protected venue keeps its name but not its content
 * unless unlocked.
 */
export const serializeVenue = linkedSerializer<Venue>('venue', {
  own: (shown) => ({
    address: shown.address,
    city: shown.city,
    country: shown.country,
    province: shown.province,
    state: shown.state,
    zip: shown.zip,
    phone: shown.phone,
    website: servedWebUrl(shown.website),
    stateprovince: shown.stateprovince,
    geo_lat: shown.geoLat,
    geo_lng: shown.geoLng,
  }),
  jsonLd: venueJsonLd,
  tail: (venue, locked) => ({
    show_map: locked ? null : venue.showMap !== false,
    show_map_link: locked ? null : venue.showMapLink !== false,
  }),
})
