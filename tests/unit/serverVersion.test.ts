import { describe, expect, it } from 'vitest'
import { tooOldServer } from '../../src/database/migrationState'

describe('the oldest PostgreSQL a release runs on', () => {
  it('refuses a server before 16 in one line, before any migration, and takes 16 and later', () => {
    expect(tooOldServer(150004, '15.4')).toBe(
      'PostgreSQL 15.4 is too old: this release needs PostgreSQL 16 or later, and nothing was migrated',
    )
    expect(tooOldServer(159999, '15.99')).toMatch(/too old/)
    expect(tooOldServer(160000, '16.0')).toBeUndefined()
    expect(tooOldServer(180001, '18.1')).toBeUndefined()
  })
})
