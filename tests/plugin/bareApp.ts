/**
 * A second Payload app that installs the calendar plugin the way a developer would: a bare config,
 * an extra field or two on events and users, an extra hook, fewer languages and another namespace root. It is
 * served over real HTTP by Payload's own request handler (no Next.js), on its own database, with the
 * language roots mounted as a Next app mounts them (`/[lang]/api/...`), and Payload's GraphQL at
 * `/api/graphql` by the handler a Next app's route exports (`GRAPHQL_POST`). The calendar comes from this
 * repository's sources, or from the packed package installed into a scratch app.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { postgresAdapter } from '@payloadcms/db-postgres'
import { GRAPHQL_POST } from '@payloadcms/next/routes'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import {
  buildConfig,
  getPayload,
  handleEndpoints,
  type Access,
  type CollectionAfterChangeHook,
  type Plugin,
} from 'payload'
import pg from 'pg'
import { calendarPlugin } from '../../src/plugin'
import { languageRootHandlers, refuseUnservedMethod } from '../../src/rest/languageRoots'

/**
 * What an app imports from the calendar: the plugin (`cal-events`), the language roots and the
 * refusal of the methods no route serves (`cal-events/routes`).
 */
export type Calendar = {
  calendarPlugin: typeof calendarPlugin
  languageRootHandlers: typeof languageRootHandlers
  refuseUnservedMethod: typeof refuseUnservedMethod
}
const fromSources: Calendar = { calendarPlugin, languageRootHandlers, refuseUnservedMethod }

export const BARE_NAMESPACE = 'calendar/v2'

/** Ids of the events the developer's hook saw, in order. */
export const hookSaw: number[] = []
const recordEvent: CollectionAfterChangeHook = ({ doc }) => {
  hookSaw.push(doc.id)
  return doc
}

/**
 * The developer's own plugin, after the calendar's: fields of their own on the users collection, its
 * trash, a collection of their own, and an endpoint that answers the signed-in user as the request's strategy made it (`req.user`).
 */
const ownUsers: Plugin = (config) => ({
  ...config,
  collections: [
    ...(config.collections ?? []).map((collection) =>
      collection.slug === 'users'
        ? {
            ...collection,
            trash: true,
            fields: [
              ...collection.fields,
              { name: 'phone', type: 'text' as const },
              { name: 'joinedOn', type: 'date' as const },
              { name: 'newsletter', type: 'checkbox' as const, defaultValue: false },
            ],
          }
        : collection,
    ),
    // A collection of the developer's own, whose slug Payload's snake case spells its own way
    // (`a_p_i_keys`): its updates take turns as the calendar's do.
    {
      slug: 'APIKeys',
      fields: [
        { name: 'label', type: 'text' },
        { name: 'uses', type: 'number' },
      ],
    },
  ],
  endpoints: [
    ...(config.endpoints ?? []),
    { path: '/signed-in-user', method: 'get', handler: (req) => Response.json(req.user) },
  ],
})

/** A read rule of the developer's own on events, joined with the calendar's, for an app that has one. */
export type BareOptions = { eventsRead?: Access }

function bareConfig(
  databaseUrl: string,
  { calendarPlugin }: Calendar,
  { eventsRead }: BareOptions,
) {
  return buildConfig({
    secret: 'bare-app-test-secret',
    db: postgresAdapter({ pool: { connectionString: databaseUrl }, push: true }),
    editor: lexicalEditor(),
    telemetry: false,
    // Uploads kept in temporary files, not in memory: the calendar's upload hooks read them there.
    upload: { useTempFiles: true },
    plugins: [
      calendarPlugin({
        languages: ['en', 'fr'],
        namespace: BARE_NAMESPACE,
        permalinks: { event: '/whats-on/{slug}/' },
        // The fault tests break the next BEGIN on the link: a job run polling beside them would take it.
        runJobs: false,
        collections: {
          events: {
            fields: [
              { name: 'capacity', label: 'Capacity', type: 'number', min: 0 },
              // A link to one collection's items, and one to several of them.
              { name: 'host', label: 'Host', type: 'relationship', relationTo: 'organizers' },
              {
                name: 'partners',
                label: 'Partners',
                type: 'relationship',
                relationTo: 'organizers',
                hasMany: true,
              },
              // Written by the staff, read by no one through any door (the calendar's reads included).
              {
                name: 'internalNote',
                label: 'Internal note',
                type: 'text',
                access: { read: () => false },
              },
              {
                name: 'audience',
                label: 'Audience',
                type: 'select',
                options: ['adults', 'families'],
              },
              // A list of values (Payload's `hasMany`).
              {
                name: 'accessibility',
                label: 'Accessibility',
                type: 'select',
                hasMany: true,
                options: ['captions', 'signing', 'step-free'],
              },
              // A row only arranges the form: its fields' values sit at the document's top level.
              { type: 'row', fields: [{ name: 'dressCode', label: 'Dress code', type: 'text' }] },
              // Rows of their own (an array), and rows of several kinds (blocks).
              {
                name: 'performers',
                label: 'Performers',
                type: 'array',
                fields: [
                  { name: 'name', type: 'text', required: true },
                  { name: 'headliner', type: 'checkbox' },
                ],
              },
              {
                name: 'extras',
                label: 'Extras',
                type: 'blocks',
                blocks: [
                  { slug: 'note', fields: [{ name: 'text', type: 'text' }] },
                  {
                    slug: 'tickets',
                    fields: [
                      { name: 'seats', type: 'number' },
                      { name: 'soldOut', type: 'checkbox' },
                    ],
                  },
                ],
              },
            ],
            hooks: { afterChange: [recordEvent] },
            ...(eventsRead ? { access: { read: eventsRead } } : {}),
          },
          venues: {
            fields: [
              { name: 'wheelchairAccess', label: 'Wheelchair access', type: 'checkbox' },
              // For the staff: a field of its own read rule.
              {
                name: 'doorCode',
                label: 'Door code',
                type: 'text',
                access: { read: ({ req }) => Boolean(req.user) },
              },
              // Named like keys of the objects' own (docs/api.md §3.3).
              { name: 'url', label: 'Address on the web', type: 'text' },
              // Kept out of Payload's APIs, and a value made when read.
              { name: 'auditRef', type: 'text', hidden: true },
              {
                name: 'badge',
                type: 'text',
                virtual: true,
                hooks: { afterRead: [({ siblingData }) => `Venue: ${siblingData?.name ?? ''}`] },
              },
              // A named tab holds its fields in an object of its own, which the admin shows as a tab.
              {
                type: 'tabs',
                tabs: [
                  { name: 'access', label: 'Access', fields: [{ name: 'ramp', type: 'checkbox' }] },
                ],
              },
            ],
          },
          organizers: { fields: [{ name: 'json_ld', label: 'Linked data', type: 'text' }] },
          // A category's colour, as calendars show them; `taxonomy` is a key of the term's own.
          'event-categories': {
            fields: [
              { name: 'colour', label: 'Colour', type: 'text' },
              { name: 'taxonomy', label: 'Taxonomy', type: 'text' },
            ],
          },
        },
      }),
      ownUsers,
    ],
  })
}

async function createDatabase(serverUrl: string): Promise<string> {
  const name = `bare_${process.pid}_${Date.now()}`
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

async function toRequest(
  incoming: import('node:http').IncomingMessage,
  origin: string,
): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const body = chunks.length ? Buffer.concat(chunks) : undefined
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    if (typeof value === 'string') headers.set(name, value)
  return new Request(new URL(incoming.url ?? '/', origin), {
    method: incoming.method,
    headers,
    body: body && incoming.method !== 'GET' ? body : undefined,
  })
}

/** The app's address, its database's (through the server it was given) and how to stop it. */
export type BareApp = { url: string; databaseUrl: string; close: () => Promise<void> }

type Method = keyof ReturnType<typeof languageRootHandlers>

export async function startBareApp(
  serverUrl: string,
  calendar: Calendar = fromSources,
  options: BareOptions = {},
): Promise<BareApp> {
  const databaseUrl = await createDatabase(serverUrl)
  const config = bareConfig(databaseUrl, calendar, options)
  const payload = await getPayload({ config })
  const languageRoots = calendar.languageRootHandlers(config)
  const graphql = GRAPHQL_POST(config)
  let origin = ''
  const server: Server = createServer((incoming, outgoing) => {
    // The Fetch API builds no request of TRACE or a WebDAV method: refused as our server refuses them.
    if (calendar.refuseUnservedMethod(incoming, outgoing, `/api/${BARE_NAMESPACE}`)) return
    void (async () => {
      const request = await toRequest(incoming, origin)
      const { pathname } = new URL(request.url)
      const lang = /^\/([^/]+)\/api\//.exec(pathname)?.[1]
      const languageRoot =
        lang && lang !== 'api' ? languageRoots[request.method as Method] : undefined
      const response =
        languageRoot && lang
          ? await languageRoot(request, { params: Promise.resolve({ lang }) })
          : pathname === '/api/graphql' && request.method === 'POST'
            ? await graphql(request)
            : await handleEndpoints({ config, request })
      outgoing.writeHead(response.status, Object.fromEntries(response.headers))
      outgoing.end(Buffer.from(await response.arrayBuffer()))
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: origin,
    databaseUrl,
    close: async () => {
      await new Promise((resolve) => server.close(resolve))
      await payload.destroy()
    },
  }
}
