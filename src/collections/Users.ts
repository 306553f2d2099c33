import type { CollectionConfig, FieldAccess } from 'payload'
import { ROLES } from '../calendar/access/roles'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf } from '../calendar/access/collectionAccess'
import { signedTokenStrategy } from '../database/users/signIn'
import { announceWait, forgiveLogin, throttleLogin } from './hooks/loginThrottle'

const administratorOnly: FieldAccess = ({ req }) => capabilities.administer(actorOf(req.user))

export const Users: CollectionConfig = {
  slug: 'users',
  auth: {
    useAPIKey: true,
    tokenExpiration: 60 * 60 * 24 * 7,
    // Payload's lock after five failures would let anyone lock the administrator out: failures are throttled instead.
    maxLoginAttempts: 0,
    // Signs in as Payload's JWT strategy does, at a fraction of its cost; it hands on the fields its
    // statement reads (`database/users/signIn.ts`): a field added below is added there too.
    strategies: [signedTokenStrategy],
  },
  admin: { useAsTitle: 'email', defaultColumns: ['email', 'name', 'role'] },
  access: {
    // Everyone reads only their own account; administrators manage all of them.
    read: ({ req }) =>
      capabilities.administer(actorOf(req.user))
        ? true
        : req.user
          ? { id: { equals: req.user.id } }
          : false,
    create: ({ req }) => capabilities.administer(actorOf(req.user)),
    update: ({ req }) =>
      capabilities.administer(actorOf(req.user))
        ? true
        : req.user
          ? { id: { equals: req.user.id } }
          : false,
    delete: ({ req }) => capabilities.administer(actorOf(req.user)),
    admin: ({ req }) => capabilities.create(actorOf(req.user)),
  },
  hooks: {
    beforeOperation: [throttleLogin],
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
      access: { create: administratorOnly, update: administratorOnly },
      admin: { position: 'sidebar' },
    },
  ],
}
