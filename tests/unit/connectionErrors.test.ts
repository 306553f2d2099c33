import { describe, expect, it } from 'vitest'
import { isConnectionLoss } from '../../src/database/connectionErrors'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('isConnectionLoss', () => {
  it('sees the connection error however deep drivers and Payload wrap it', () => {
    const reset = withCode('read ECONNRESET', 'ECONNRESET')
    const drizzle = new Error('Failed query: insert into "events" ...\nparams: 1,2', {
      cause: reset,
    })
    expect(isConnectionLoss(drizzle)).toBe(true)
    expect(isConnectionLoss(new Error('could not create the event', { cause: drizzle }))).toBe(true)
    // Payload's beginTransaction keeps only the message of what it caught.
    expect(
      isConnectionLoss(
        new Error(
          'Error: cannot begin transaction: terminating connection due to unexpected postmaster exit',
        ),
      ),
    ).toBe(true)
    expect(
      isConnectionLoss(new Error('Error: cannot begin transaction: Failed query: begin\nparams: ')),
    ).toBe(true)
    // A host name that resolves to several addresses, each refused.
    const refused = new AggregateError(
      [
        withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'),
        withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      ],
      '',
    )
    expect(
      isConnectionLoss(new Error('Error: cannot connect to Postgres', { cause: refused })),
    ).toBe(true)
    expect(isConnectionLoss(withCode('the database system is starting up', '57P03'))).toBe(true)
  })

  it('leaves the request’s own failures alone', () => {
    expect(
      isConnectionLoss(
        withCode('duplicate key value violates unique constraint "events_slug_idx"', '23505'),
      ),
    ).toBe(false)
    expect(
      isConnectionLoss(
        new Error('Failed query: select 1\nparams: ', {
          cause: withCode('invalid input syntax for type integer: "x"', '22P02'),
        }),
      ),
    ).toBe(false)
    expect(isConnectionLoss(new Error('The following field is invalid: title'))).toBe(false)
    expect(isConnectionLoss('Connection terminated')).toBe(false)
  })

  it('ends on a cause chain that loops', () => {
    const first = new Error('first')
    const second = new Error('second', { cause: first })
    first.cause = second
    expect(isConnectionLoss(first)).toBe(false)
  })
})
