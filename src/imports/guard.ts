import { addressGuard, envFlag } from '../network/addressGuard'

/**
 * Import sources (another calendar's site, an iCalendar feed) and the images they link may be on
 * private, loopback or link-local addresses only when the operator says so (IMPORT_ALLOW_PRIVATE,
 * docs/operations.md): an administrator's URL must not reach the server's own network.
 */
export const importAllowsPrivate = envFlag('IMPORT_ALLOW_PRIVATE')

export const importGuard = addressGuard(importAllowsPrivate)

/** Said after a refusal (docs/api.md §23.5): the switch that lifts it. */
export const REFUSED_NOTE =
  'set IMPORT_ALLOW_PRIVATE=true to import from private, loopback or link-local addresses'
