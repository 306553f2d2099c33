import { type CollectionBeforeOperationHook, type FlattenedField, type Payload } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf } from '../calendar/access/collectionAccess'
import { queryPaths, type QueryArgs } from '../calendar/access/queryPaths'
import { RefusedQuery } from '../calendar/access/refusedQuery'

/** The operations that select items or versions by a caller's `where` and `sort` (Payload hands a versions query on as `read`). */
const SELECTING = new Set(['read', 'count', 'countVersions', 'readDistinct', 'update', 'delete'])

/** What a version's path starts with before the item's own fields (`version.author`). */
const VERSION = 'version'

/** Links deeper than this are not followed: no query of the calendar's goes near it. */
const MOST_LINKS = 8

type Schema = {
  fieldsOf: (collection: string) => FlattenedField[] | undefined
  accounts: Set<string>
}

/**
 * Whether `path`, read in `fields`, goes into an account's fields: through any link (a relationship,
 * an upload, a join), however many links it follows first (`venue.editedBy.email`), in groups, tabs,
 * arrays and blocks. The link itself (`author`, `author.id`, `user.relationTo`) is not the account.
 */
function reachesAccount(
  fields: FlattenedField[],
  path: string[],
  schema: Schema,
  links = 0,
): boolean {
  const [name, ...rest] = path
  const field = fields.find((candidate) => 'name' in candidate && candidate.name === name)
  if (!field || !rest.length) return false
  if (field.type === 'group' || field.type === 'tab' || field.type === 'array')
    return reachesAccount(field.flattenedFields, rest, schema, links)
  if (field.type === 'blocks')
    return field.blocks.some(
      (block) =>
        typeof block !== 'string' && reachesAccount(block.flattenedFields, rest, schema, links),
    )
  const target =
    field.type === 'relationship' || field.type === 'upload'
      ? field.relationTo
      : field.type === 'join'
        ? field.collection
        : undefined
  if (target === undefined || links >= MOST_LINKS) return false
  const targets = Array.isArray(target) ? target : [target]
  // A link to several collections is `{ relationTo, value }`: its item's fields are under `value`.
  if (Array.isArray(target) && rest[0] === 'relationTo') return false
  const into = Array.isArray(target) && rest[0] === 'value' ? rest.slice(1) : rest
  if (!into.length || (into.length === 1 && into[0] === 'id')) return false
  return targets.some(
    (slug) =>
      schema.accounts.has(slug) ||
      reachesAccount(schema.fieldsOf(slug) ?? [], into, schema, links + 1),
  )
}

/**
 * Accounts are read by their owner and administrators alone (docs/api.md §2.1), and Payload applies
 * that to a `where` through a link to an account, but not to a `sort`: sorting items by their last
 * editor's e-mail (`sort=editedBy.email`, or one link further, `venue.editedBy.email`) among items
 * whose editors are known read others' accounts a guess at a time, and one who may change their own
 * e-mail could find any editor's by halves. So a query of any collection that reaches into an account
 * through any link (`author`, `editedBy`, a developer's own, in versions too) is refused to all but
 * administrators; the link itself (`sort=author`, `author.id`) is not.
 */
function refuseAccountPaths(
  fields: FlattenedField[],
  schema: Schema,
): CollectionBeforeOperationHook {
  const reaches = (path: string[]) =>
    reachesAccount(fields, path, schema) ||
    (path[0] === VERSION && reachesAccount(fields, path.slice(1), schema))
  return ({ args, operation, req }) => {
    const query = args as QueryArgs & { overrideAccess?: boolean }
    if (!SELECTING.has(operation) || query.overrideAccess || req.context.calendarNamespace)
      return args
    if (capabilities.administer(actorOf(req.user))) return args
    if (queryPaths(query).some(reaches)) throw new RefusedQuery(req)
    return args
  }
}

/** Installs the guard on every collection of the running config, the app's own included. */
export function guardAccountLinks(payload: Payload): void {
  const collections = Object.values(payload.collections).map(({ config }) => config)
  const schema: Schema = {
    fieldsOf: (slug) =>
      payload.collections[slug as keyof typeof payload.collections]?.config.flattenedFields,
    accounts: new Set(collections.filter((config) => config.auth).map((config) => config.slug)),
  }
  for (const config of collections)
    config.hooks.beforeOperation = [
      refuseAccountPaths(config.flattenedFields, schema),
      ...(config.hooks.beforeOperation ?? []),
    ]
}
