import {
  Forbidden,
  type CollectionBeforeOperationHook,
  type FlattenedField,
  type Payload,
} from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf } from '../calendar/access/collectionAccess'
import { queryPaths, throughLink, type QueryArgs } from '../calendar/access/queryPaths'

/** The operations that select items or versions by a caller's `where` and `sort`. */
const SELECTING = new Set(['read', 'count', 'countVersions', 'readDistinct', 'update', 'delete'])

/** What a version's path starts with before the item's own fields (`version.author`). */
const VERSION = 'version'

type Link = { path: string[]; own: string[] }

/** What names a link to several collections itself, not the linked item's fields. */
const POLYMORPHIC_OWN = ['id', 'relationTo', 'value', 'value.id']

/** The fields, in groups and named tabs too, that link to one of `accounts`. */
function accountLinks(fields: FlattenedField[], accounts: Set<string>, at: string[] = []): Link[] {
  return fields.flatMap((field) => {
    const path = [...at, field.name]
    if (field.type === 'relationship' || field.type === 'upload') {
      const many = Array.isArray(field.relationTo)
      const to = many ? (field.relationTo as string[]) : [field.relationTo as string]
      return to.some((slug) => accounts.has(slug))
        ? [{ path, own: many ? POLYMORPHIC_OWN : ['id'] }]
        : []
    }
    if ((field.type === 'group' || field.type === 'tab') && 'flattenedFields' in field)
      return accountLinks(field.flattenedFields, accounts, path)
    return []
  })
}

/**
 * Accounts are read by their owner and administrators alone (docs/api.md §2.1), and Payload applies
 * that to a `where` through a link to an account, but not to a `sort`: sorting items by their author's
 * or last editor's e-mail, name, role or password hash (`sort=editedBy.email`) among items whose
 * accounts are known read others' accounts a guess at a time, and a contributor who may change their
 * own e-mail could find any editor's by halves. So a query of any collection through any link to an
 * account (`author`, `editedBy`, a developer's own, in its versions too: `version.editedBy.email`) is
 * refused to all but administrators; the link itself (`sort=author`, `author.id`) is not.
 */
function refuseAccountPaths(links: Link[]): CollectionBeforeOperationHook {
  // Payload hands a versions query to the hooks as a `read` too: its paths start with `version`.
  const through = [...links, ...links.map((link) => ({ ...link, path: [VERSION, ...link.path] }))]
  return ({ args, operation, req }) => {
    const query = args as QueryArgs & { overrideAccess?: boolean }
    if (!SELECTING.has(operation) || query.overrideAccess || req.context.calendarNamespace)
      return args
    if (capabilities.administer(actorOf(req.user))) return args
    const paths = queryPaths(query)
    if (through.some((link) => paths.some((path) => throughLink([link.path], path, link.own))))
      throw new Forbidden(req.t)
    return args
  }
}

/** Installs the guard on every collection of the running config that links to an account, the app's own included. */
export function guardAccountLinks(payload: Payload): void {
  const accounts = new Set(
    Object.values(payload.collections)
      .filter(({ config }) => config.auth)
      .map(({ config }) => config.slug),
  )
  for (const { config } of Object.values(payload.collections)) {
    const links = accountLinks(config.flattenedFields, accounts)
    if (links.length)
      config.hooks.beforeOperation = [
        refuseAccountPaths(links),
        ...(config.hooks.beforeOperation ?? []),
      ]
  }
}
