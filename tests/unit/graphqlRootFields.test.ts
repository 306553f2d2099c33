import { describe, expect, it } from 'vitest'
import { MAX_ROOT_FIELDS, rootFieldCount } from '../../src/server/graphqlRootFields'

const aliases = (count: number, field = 'Events(limit: 1) { totalDocs }') =>
  Array.from({ length: count }, (_, index) => `a${index}: ${field}`).join(' ')

describe('the root fields of a GraphQL operation', () => {
  it('counts every root field, aliases included, and not __typename', () => {
    expect(rootFieldCount('{ Events { totalDocs } Venues { totalDocs } __typename }')).toBe(2)
    expect(rootFieldCount(`{ ${aliases(490)} }`)).toBeGreaterThan(MAX_ROOT_FIELDS)
    expect(rootFieldCount(`query Q { ${aliases(MAX_ROOT_FIELDS)} }`)).toBe(MAX_ROOT_FIELDS)
    expect(rootFieldCount(`mutation { ${aliases(3, 'logoutUser')} }`)).toBe(3)
  })

  it('counts the fields of fragments and inline fragments where they are spread', () => {
    const fragment = `fragment F on Query { ${aliases(15)} }`
    expect(rootFieldCount(`{ ...F } ${fragment}`)).toBe(15)
    expect(rootFieldCount(`{ ...F ... on Query { ${aliases(10)} } } ${fragment}`)).toBe(25)
    // Fragments spreading fragments twice over are counted without being walked each time.
    const nested = Array.from(
      { length: 40 },
      (_, level) => `fragment F${level} on Query { ...F${level + 1} ...F${level + 1} }`,
    )
    expect(
      rootFieldCount(
        `{ ...F0 } ${nested.join(' ')} fragment F40 on Query { Events { totalDocs } }`,
      ),
    ).toBeGreaterThan(MAX_ROOT_FIELDS)
  })

  it('leaves a query it cannot parse to Payload, and counts one past its token bound as too many', () => {
    expect(rootFieldCount('{ Events {')).toBeUndefined()
    expect(
      rootFieldCount(
        `{ Events(where: { title: { in: [${'"x" '.repeat(60_000)}] } }) { totalDocs } }`,
      ),
    ).toBe(Number.POSITIVE_INFINITY)
  })
})
