import type { Actor } from '../calendar/access/roles'
import { clientAddress } from '../collections/clientAddress'
import type { ReadScope } from '../database/readScope'

/** Who a limit or a throttle counts: the signed-in user, else the address. */
export function clientOf(caller: { req: ReadScope['req']; actor: Actor }): string {
  return caller.actor ? `user:${caller.actor.id}` : `address:${clientAddress(caller.req)}`
}
