import {
  GraphQLError,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  NoFragmentCyclesRule,
  NoUndefinedVariablesRule,
  OperationTypeNode,
  parse,
  validate,
  visit,
  BREAK,
  type DefinitionNode,
  type DocumentNode,
  type SelectionSetNode,
  type ValidationRule,
  type ValueNode,
} from 'graphql'
import { deeperThan, MAX_JSON_DEPTH, TOO_DEEP } from '../calendar/depth'

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
 * The most root fields any operation of a document asks for, fragments expanded where they are
 * spread (once per spread, which never undercounts), and counted once each.
 */
function rootFieldCount(definitions: readonly DefinitionNode[]): number {
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
        // A fragment that spreads itself is an invalid query, which GraphQL's own rules refuse.
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

const TOO_MANY_FIELDS = `A GraphQL operation may ask for at most ${MAX_ROOT_FIELDS} root fields, aliases included; send the others in another request.`

/**
 * A GraphQL validation rule (Payload's `graphQL.validationRules`): an operation of more than
 * `MAX_ROOT_FIELDS` root fields is refused before any of it runs, however the request reached
 * Payload's GraphQL (its answer is then GraphQL's, errors in a 200).
 */
export const rootFieldLimit: ValidationRule = (context) => ({
  Document(document) {
    if (rootFieldCount(document.definitions) > MAX_ROOT_FIELDS)
      context.reportError(new GraphQLError(TOO_MANY_FIELDS))
    return false
  },
})

/**
 * Why the guard of Payload's routes refuses a GraphQL request's query with a 400 before Payload's
 * handler parses it whole (past `MAX_TOKENS`) or runs it (past `MAX_ROOT_FIELDS`); undefined when it
 * does not, a query that cannot be parsed included, which the handler answers itself.
 */
export function refusedQuery(query: string): string | undefined {
  let document: DocumentNode
  try {
    document = parse(query, { noLocation: true, maxTokens: MAX_TOKENS })
  } catch (error) {
    // GraphQL's parser recurses into a value's braces: a deep enough literal runs it out of stack.
    if (error instanceof RangeError) return TOO_DEEP_VALUE
    return /tokens/.test((error as Error).message)
      ? `A GraphQL query may run to at most ${MAX_TOKENS} tokens.`
      : undefined
  }
  if (rootFieldCount(document.definitions) > MAX_ROOT_FIELDS) return TOO_MANY_FIELDS
  if (literalTooDeep(document)) return TOO_DEEP_VALUE
  if (
    document.definitions.some(
      (definition) =>
        definition.kind === Kind.OPERATION_DEFINITION &&
        definition.operation === OperationTypeNode.SUBSCRIPTION,
    )
  )
    return 'This GraphQL API has no subscriptions.'
  const [invalid] = validate(SHAPE_ONLY, document, BEFORE_PAYLOAD)
  return invalid?.message
}

const TOO_DEEP_VALUE = `A GraphQL value ${TOO_DEEP}.`

const valuesIn = (value: ValueNode): readonly ValueNode[] | undefined =>
  value.kind === Kind.OBJECT
    ? value.fields.map((field) => field.value)
    : value.kind === Kind.LIST
      ? value.values
      : undefined

/**
 * Whether an argument's literal (a `where` written in the query) nests past `MAX_JSON_DEPTH`, as
 * variables may not (the guard of Payload's routes): Payload's resolvers walk it by recursion, and
 * 1,000 levels sent anonymously ran them out of stack. GraphQL's `visit` walks without recursion.
 */
function literalTooDeep(document: DocumentNode): boolean {
  let deep = false
  visit(document, {
    Argument(argument) {
      if (deeperThan<ValueNode>(argument.value, valuesIn, MAX_JSON_DEPTH)) deep = true
      return deep ? BREAK : false
    },
  })
  return deep
}

/**
 * GraphQL's own rules that Payload's handler asks only after its query-complexity rule, which
 * follows a fragment that spreads itself until the stack runs out and reads a directive's
 * undefined variable: both were a 500 with an empty body, to anyone. They read the document alone,
 * so a schema of one field serves them.
 */
const BEFORE_PAYLOAD = [NoFragmentCyclesRule, NoUndefinedVariablesRule]

const SHAPE_ONLY = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { shape: { type: GraphQLString } } }),
})
