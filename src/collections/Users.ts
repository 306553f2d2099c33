import type { Access, CollectionConfig } from 'payload'
import { ROLES } from '../calendar/access/roles'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf, administratorsOnly, isAdministrator } from '../calendar/access/collectionAccess'
import { signedTokenStrategy } from '../database/users/signIn'
import { announceWait, evenLoginTime, forgiveLogin, throttleLogin } from './hooks/loginThrottle'

/** Administrators reach every account; anyone else signed in only their own. */
const ownAccount: Access = ({ req }) =>
  capabilities.administer(actorOf(req.user)) || (req.user ? { id: { equals: req.user.id } } : false)

export const Users: CollectionConfig = {
  slug: 'users',
  auth: {
    useAPIKey: true,
    tokenExpiration: 60 * 60 * 24 * 7,
    // Payload's lock after five failures would let anyone lock the administrator out: failures are throttled instead.
    maxLoginAttempts: 0,
    // Sent back over HTTPS alone when the site is served over it: sent once over plain HTTP, the
    // cookie gives the session away.
    cookies: { secure: (process.env.SERVER_URL ?? '').startsWith('https://') },
    // Signs in as Payload's JWT strategy does, at a fraction of its cost; it hands on the fields its
    // statement reads (`database/users/signIn.ts`): a field added below is added there too.
    strategies: [signedTokenStrategy],
  },
  admin: { useAsTitle: 'email', defaultColumns: ['email', 'name', 'role'] },
  access: {
    // Everyone reads and updates only their own account; administrators manage all of them.
    read: ownAccount,
    create: isAdministrator,
    update: ownAccount,
    delete: isAdministrator,
    // Payload lets any account unlock any other; lockout is off (failures are throttled instead), but
    // an unlock is an administrator's act wherever it is offered.
    unlock: isAdministrator,
    admin: ({ req }) => capabilities.create(actorOf(req.user)),
  },
  hooks: {
    beforeOperation: [throttleLogin, evenLoginTime],
    afterLogin: [forgiveLogin],
    afterError: [announceWait],
    beforeChange: [
      async ({ data, operation, req }) => {
        // The account made by first-register, while there is no other, administers the site.
        if (
          operation === 'create' &&
          (await req.payload.count({ collection: 'users', req, overrideAccess: true }))
            .totalDocs === 0
        ) {
          data.role = 'administrator'
        }
        return data
      },
    ],
  },
  fields: [
    { name: 'name', type: 'text' },
    {
      name: 'role',
      type: 'select',
      required: true,
      defaultValue: 'subscriber',
      options: ROLES.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) })),
      saveToJWT: true,
      access: { create: administratorsOnly, update: administratorsOnly },
      admin: { position: 'sidebar' },
    },
  ],
}
