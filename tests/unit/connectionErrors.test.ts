import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
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
    // PgBouncer in front of a primary that is away, or with none of its connections free in time.
    for (const said of [
      'server login has been failing, try again later (server_login_retry)',
      'pgbouncer cannot connect to server',
      'query_wait_timeout',
      'no more connections allowed (max_client_conn)',
    ])
      expect(isConnectionLoss(withCode(said, '08P01')), said).toBe(true)
    expect(isConnectionLoss(withCode('invalid frontend message type 0', '08P01'))).toBe(false)
  })

  it('sees a stopped PostgreSQL behind its Unix socket: the socket’s file is gone', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'no-cluster-'))
    const client = new pg.Client({ host: folder, port: 5432, user: 'x', database: 'x' })
    const failure = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(String(failure)).toMatch(/ENOENT .*\.s\.PGSQL\.5432/)
    expect(isConnectionLoss(failure)).toBe(true)
    // Payload's wrappers keep only its message.
    expect(isConnectionLoss(new Error(`cannot connect to Postgres: ${String(failure)}`))).toBe(true)
    // Another file missing is no database's doing.
    expect(
      isConnectionLoss(withCode("ENOENT: no such file or directory, open '/x'", 'ENOENT')),
    ).toBe(false)
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
