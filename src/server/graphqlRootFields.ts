import { Kind, parse, type DefinitionNode, type SelectionSetNode } from 'graphql'

/**
 * The most root fields, aliases included, that one GraphQL operation may ask for. Each root field of
 * Payload's schema runs a resolver that wraps the request shared by the operation's fields in one more
 * proxy and keeps it (`@payloadcms/graphql`'s resolvers reassign `context.req`), so every read of the
 * request in the Nth field goes through N proxies: the time grows with the square of the fields, and
 * 490 aliases of `Events` (22 KB, anonymous) held the server's thread for 43 s. Twenty is more than a
 * page asks for in one request (every collection and a count or two) and costs a few milliseconds.
 */
export const MAX_ROOT_FIELDS = 20

/** Bounds the parse itself: a query of this many tokens is far past any real one. */
export const MAX_TOKENS = 50_000

/**
 * The most root fields any operation of `query` asks for, fragments expanded (a fragment counted
 * once per spread, which never undercounts); infinite for a query past `MAX_TOKENS`; undefined when
 * the query cannot be parsed, which Payload's handler answers itself.
 */
export function rootFieldCount(query: string): number | undefined {
  let definitions: readonly DefinitionNode[]
  try {
    definitions = parse(query, { noLocation: true, maxTokens: MAX_TOKENS }).definitions
  } catch (error) {
    return /tokens/.test((error as Error).message) ? Number.POSITIVE_INFINITY : undefined
  }
  const fragments = new Map<string, SelectionSetNode>()
  for (const definition of definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition.selectionSet)
  const counted = new Map<string, number>()
  const count = (set: SelectionSetNode, open: Set<string>): number => {
    let fields = 0
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields += selection.name.value === '__typename' ? 0 : 1
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        fields += count(selection.selectionSet, open)
      else {
        const name = selection.name.value
        const fragment = fragments.get(name)
        // A fragment that spreads itself is an invalid query, which Payload's handler refuses.
        if (!fragment || open.has(name)) continue
        if (!counted.has(name)) counted.set(name, count(fragment, new Set([...open, name])))
        fields += counted.get(name)!
      }
      if (fields > MAX_ROOT_FIELDS) return fields
    }
    return fields
  }
  return Math.max(
    0,
    ...definitions.map((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION ? count(definition.selectionSet, new Set()) : 0,
    ),
  )
}
