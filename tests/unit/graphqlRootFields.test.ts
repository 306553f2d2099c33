import { buildSchema, parse, validate } from 'graphql'
import { describe, expect, it } from 'vitest'
import { MAX_ROOT_FIELDS, refusedQuery, rootFieldLimit } from '../../src/server/graphqlRootFields'

const schema = buildSchema(`
  type Page { totalDocs: Int }
  type Query { Events(limit: Int): Page, Venues: Page }
  type Mutation { logoutUser: String }
`)

/** Whether the rule refuses the query. */
const refused = (query: string) =>
  validate(schema, parse(query), [rootFieldLimit]).some((error) =>
    error.message.includes(`at most ${MAX_ROOT_FIELDS} root fields`),
  )

const aliases = (count: number, field = 'Events(limit: 1) { totalDocs }') =>
  Array.from({ length: count }, (_, index) => `a${index}: ${field}`).join(' ')

describe('the root fields of a GraphQL operation', () => {
  it('counts every root field, aliases included, and not __typename', () => {
    expect(refused('{ Events { totalDocs } Venues { totalDocs } __typename }')).toBe(false)
    expect(refused(`{ ${aliases(490)} }`)).toBe(true)
    expect(refused(`query Q { ${aliases(MAX_ROOT_FIELDS)} __typename }`)).toBe(false)
    expect(refused(`query Q { ${aliases(MAX_ROOT_FIELDS + 1)} }`)).toBe(true)
    expect(refused(`mutation { ${aliases(MAX_ROOT_FIELDS + 1, 'logoutUser')} }`)).toBe(true)
  })

  it('counts the fields of fragments and inline fragments where they are spread', () => {
    const fragment = `fragment F on Query { ${aliases(15)} }`
    expect(refused(`{ ...F } ${fragment}`)).toBe(false)
    expect(
      refused(`{ ...F ... on Query { ${aliases(10, 'Venues { totalDocs }')} } } ${fragment}`),
    ).toBe(true)
    // Fragments spreading fragments twice over are counted without being walked each time.
    const nested = Array.from(
      { length: 40 },
      (_, level) => `fragment F${level} on Query { ...F${level + 1} ...F${level + 1} }`,
    )
    expect(
      refused(`{ ...F0 } ${nested.join(' ')} fragment F40 on Query { Events { totalDocs } }`),
    ).toBe(true)
  })

  it('refuses at the door a query past its token bound or its root fields, and leaves one it cannot parse to Payload', () => {
    expect(refusedQuery('{ Events {')).toBeUndefined()
    expect(refusedQuery(`{ ${aliases(MAX_ROOT_FIELDS)} }`)).toBeUndefined()
    expect(refusedQuery(`{ ${aliases(MAX_ROOT_FIELDS + 1)} }`)).toMatch(/at most 20 root fields/)
    expect(refusedQuery(`{ Events(limit: [${'1 '.repeat(60_000)}]) { totalDocs } }`)).toMatch(
      /at most 50000 tokens/,
    )
  })
})
