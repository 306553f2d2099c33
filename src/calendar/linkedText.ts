/**
 * A venue's and an organizer's text fields: the same keys in the namespace's answers and writes
 * and in their collections, in the answers' order. `province` and `state` are upstream's own keys
 * beside `stateprovince`.
 */
export const VENUE_TEXT = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
] as const
export const ORGANIZER_TEXT = ['phone', 'website', 'email'] as const

export type VenueText = { [K in (typeof VENUE_TEXT)[number]]?: string }
export type OrganizerText = { [K in (typeof ORGANIZER_TEXT)[number]]?: string }
