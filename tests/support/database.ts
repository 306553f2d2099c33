import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'

/**
 * A connection to the test server's database for the calling test file, for what only SQL shows or
 * sets (rows no door serves, clocks moved back); open during the file's tests.
 */
export function testDatabase(): pg.Client {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  beforeAll(() => client.connect())
  afterAll(() => client.end())
  return client
}
