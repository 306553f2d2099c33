import type { Where } from 'payload'
import type { Reader } from '../reader'

const EARTH_RADIUS_KM = 6371.0088

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180
  const dLat = (lat2 - lat1) * rad
  const dLng = (lng2 - lng1) * rad
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/**
 * Ids of venues within `radiusKm` of a point (docs/api.md §12): a bounding box narrows the candidates
 * in the database, the exact distance decides.
 */
export async function venuesNear(
  reader: Reader,
  lat: number,
  lng: number,
  radiusKm: number,
): Promise<number[]> {
  const dLat = radiusKm / 111.32
  const cosLat = Math.cos((lat * Math.PI) / 180)
  const dLng = cosLat > 1e-6 ? radiusKm / (111.32 * cosLat) : 360
  const box: Where[] = [
    { geoLat: { greater_than_equal: lat - dLat } },
    { geoLat: { less_than_equal: lat + dLat } },
    // A box that wraps around the antimeridian is left open in longitude; the distance check still applies.
    ...(lng - dLng >= -180 && lng + dLng <= 180
      ? [
          { geoLng: { greater_than_equal: lng - dLng } },
          { geoLng: { less_than_equal: lng + dLng } },
        ]
      : []),
  ]
  const { docs } = await reader.req.payload.find({
    collection: 'venues',
    req: reader.req,
    user: reader.req.user,
    overrideAccess: false,
    depth: 0,
    pagination: false,
    select: { geoLat: true, geoLng: true },
    where: { and: box },
  })
  return docs
    .filter(
      (venue) =>
        venue.geoLat != null &&
        venue.geoLng != null &&
        distanceKm(lat, lng, venue.geoLat, venue.geoLng) <= radiusKm,
    )
    .map((venue) => venue.id)
}
