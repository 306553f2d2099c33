/**
 * The committed migrations must describe exactly the schema the collections produce: a field added
 * without `npm run payload -- migrate:create` fails here, not in production.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { getPayload, type Payload } from 'payload'
import config from '@payload-config'

type DrizzleKit = {
  generateDrizzleJson: (schema: unknown) => Promise<{ version: string }>
  generateMigration: (before: unknown, after: unknown) => Promise<string[]>
  upSnapshot?: (snapshot: unknown) => unknown
}

let payload: Payload | undefined

afterAll(async () => {
  await payload?.destroy()
})

describe('migrations', () => {
  it('match the collections', async () => {
    payload = await getPayload({ config })
    const db = payload.db as unknown as { requireDrizzleKit: () => DrizzleKit; schema: unknown; migrationDir: string }
    const kit = db.requireDrizzleKit()
    const after = await kit.generateDrizzleJson(db.schema)
    const latest = readdirSync(db.migrationDir).filter((file) => file.endsWith('.json')).sort().at(-1)
    expect(latest, 'no committed migration snapshot').toBeDefined()
    let before = JSON.parse(readFileSync(path.join(db.migrationDir, latest!), 'utf8'))
    if (kit.upSnapshot && before.version < after.version) before = kit.upSnapshot(before)
    const pending = await kit.generateMigration(before, after)
    expect(pending, 'the collections changed: run `npm run payload -- migrate:create <name>` and commit it').toEqual([])
  })
})
