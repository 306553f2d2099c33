/**
 * The doors through which a caller reaches the calendar's data, for the door-parity suite
 * (tests/api/door-parity.test.ts). Each rule of that suite names every door here, with a check or the
 * reason it cannot be broken through that door, so that a door added here is a type error in every rule
 * until it is decided.
 */
import { call, NS, type Reply } from './api'
import type { AuthoredResource } from '../../src/calendar/resources'

export const DOORS = [
  'namespace',
  'payload-rest',
  'graphql',
  'admin-actions',
  'imports',
  'exports',
  'change-feed',
  'webhooks',
] as const
export type Door = (typeof DOORS)[number]

/** What a caller obtained, as text: a leak is a secret found in it, whatever its shape. */
export const textOf = (reply: Reply): string =>
  typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)

/** GraphQL's names of an authored collection: `Event`, `Events`, `countEvents`, `versionsEvents`. */
export function graphqlNames(resource: AuthoredResource) {
  const singular = resource.singular[0]!.toUpperCase() + resource.singular.slice(1)
  const plural = resource.key[0]!.toUpperCase() + resource.key.slice(1)
  return {
    singular,
    plural,
    count: `count${plural}`,
    versions: `versions${plural}`,
    create: `create${singular}`,
    update: `update${singular}`,
  }
}

/** The name field of a resource in Payload (`title` for events, `name` for the others). */
export const nameField = (resource: AuthoredResource): 'title' | 'name' =>
  resource.key === 'events' ? 'title' : 'name'

export async function graphql(query: string, token?: string): Promise<Reply> {
  return call('/api/graphql', { method: 'POST', token, json: { query } })
}

/**
 * Every read of one item that a door offers, as text: the namespace's single read and lists, Payload's
 * find, findByID, count and versions, GraphQL's equivalents. A positive control (the administrator sees
 * the item through each) keeps a broken query from passing as "nothing leaked".
 */
export async function readsThrough(
  door: 'namespace' | 'payload-rest' | 'graphql',
  resource: AuthoredResource,
  id: number,
  name: string,
  token?: string,
) {
  const { collection, key } = resource
  if (door === 'namespace') {
    // The list echoes its search in `rest_url`: search by the name's tail, so an echo is not a leak.
    const search = `search=${encodeURIComponent(name.slice(-10))}`
    return Promise.all([
      call(`${NS}/${key}/${id}`, { token }),
      call(`${NS}/${key}/${id}?context=edit`, { token }),
      call(`${NS}/${key}?${search}&status=any`, { token }),
      call(`${NS}/${key}?${search}`, { token }),
    ])
  }
  if (door === 'payload-rest') {
    return Promise.all([
      call(`/api/${collection}/${id}?depth=0`, { token }),
      call(`/api/${collection}?where[id][equals]=${id}&depth=0`, { token }),
      call(`/api/${collection}/versions?where[parent][equals]=${id}&depth=0`, { token }),
    ])
  }
  const names = graphqlNames(resource)
  const fields = `id ${nameField(resource)} website`
  return Promise.all([
    graphql(`{ ${names.singular}(id: ${id}) { ${fields} } }`, token),
    graphql(`{ ${names.plural}(where: { id: { equals: ${id} } }) { docs { ${fields} } } }`, token),
    graphql(
      `{ ${names.versions}(where: { parent: { equals: ${id} } }) { docs { version { ${fields.slice(3)} } } } }`,
      token,
    ),
  ])
}

/** How many items a count door confirms for `where` (bracket query string for REST, a GraphQL literal for GraphQL). */
export async function countThrough(
  door: 'payload-rest' | 'graphql',
  resource: AuthoredResource,
  rest: string,
  gql: string,
  token?: string,
): Promise<number> {
  if (door === 'payload-rest') {
    const reply = await call(`/api/${resource.collection}/count?${rest}`, { token })
    return reply.status === 200 ? (reply.body.totalDocs as number) : 0
  }
  const reply = await graphql(
    `{ ${graphqlNames(resource).count}(where: ${gql}) { totalDocs } }`,
    token,
  )
  return (reply.body?.data?.[graphqlNames(resource).count]?.totalDocs as number | undefined) ?? 0
}
