import { addressGuard, envFlag } from '../network/addressGuard'

/**
 * Import sources (another calendar's site, an iCalendar feed) and the images they link may be on
 * private, loopback or link-local addresses only when the operator says so (IMPORT_ALLOW_PRIVATE,
 * docs/operations.md): an administrator's URL must not reach the server's own network.
 */
export const importAllowsPrivate = envFlag('IMPORT_ALLOW_PRIVATE')

export const importGuard = addressGuard(importAllowsPrivate)

/** What the address guards say when they refuse an address (src/network/): the refusal's own words. */
const REFUSED = /refused address|private, loopback or link-local address, which is refused/

/** A refusal names the switch that lifts it (docs/api.md §23.5); any other message is left as it is. */
export function namingTheSwitch(message: string): string {
  if (!REFUSED.test(message) || importAllowsPrivate()) return message
  return `${message.replace(/\.$/, '')} (set IMPORT_ALLOW_PRIVATE=true to import from private, loopback or link-local addresses)`
}
