/**
 * The committed migrations must describe exactly the schema the collections produce: a field added
 * without `npm run payload -- migrate:create` fails here, not in production.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { getPayload, type Payload } from 'payload'
import { sql } from '@payloadcms/db-postgres'
import config from '@payload-config'
import { up as rerenderDescriptions } from '../../src/migrations/20261123_210000_description_html'
import { htmlToRichText } from '../../src/collections/fields/richText'
import { CONTENT_TABLES } from '../../src/migrations/calendarSchema/revision'

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
    const db = payload.db as unknown as {
      requireDrizzleKit: () => DrizzleKit
      schema: unknown
      migrationDir: string
    }
    const kit = db.requireDrizzleKit()
    const after = await kit.generateDrizzleJson(db.schema)
    const latest = readdirSync(db.migrationDir)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .at(-1)
    expect(latest, 'no committed migration snapshot').toBeDefined()
    let before = JSON.parse(readFileSync(path.join(db.migrationDir, latest!), 'utf8'))
    if (kit.upSnapshot && before.version < after.version) before = kit.upSnapshot(before)
    const pending = await kit.generateMigration(before, after)
    expect(
      pending,
      'the collections changed: run `npm run payload -- migrate:create <name>` and commit it',
    ).toEqual([])
  })

  it('give every table of the content its revision trigger, so a migration that adds one must apply the calendar’s schema again', async () => {
    payload ??= await getPayload({ config })
    const drizzle = (
      payload.db as unknown as {
        drizzle: { execute: (query: unknown) => Promise<{ rows: { tablename: string }[] }> }
      }
    ).drizzle
    const pattern = `^(${CONTENT_TABLES.join('|')})(_|$)`
    const { rows } = await drizzle.execute(sql`
      select t.tablename from pg_tables t
       where t.schemaname = current_schema() and t.tablename ~ ${pattern}
         and not exists (select 1 from pg_trigger g where g.tgname = 'calendar_revision' and g.tgrelid = format('%I.%I', t.schemaname, t.tablename)::regclass)`)
    expect(rows, 'end the migration that made these tables with `calendarSchema.up(args)`').toEqual(
      [],
    )
  })

  it('render stored descriptions again with the clean markup, leaving the rest of the row alone', async () => {
    payload ??= await getPayload({ config })
    const description = await htmlToRichText(
      payload.config,
      '<p>Intro</p><ul><li>One</li><li>Two</li></ul>',
    )
    const event = await payload.create({
      collection: 'events',
      data: {
        title: `Migrated ${Date.now()}`,
        start: '2031-01-01T10:00:00.000Z',
        end: '2031-01-01T11:00:00.000Z',
        status: 'publish',
        description,
      },
      overrideAccess: true,
    })
    const drizzle = (
      payload.db as unknown as {
        drizzle: { execute: (query: unknown) => Promise<{ rows: Record<string, unknown>[] }> }
      }
    ).drizzle
    const before =
      '<p>Intro</p><ul class="list-bullet"><li class="" style="" value="1">One</li><li class="" style="" value="2">Two</li></ul>'
    await drizzle.execute(
      sql`update events_locales set description_html = ${before} where _parent_id = ${event.id}`,
    )

    await rerenderDescriptions({ db: drizzle, payload, req: {} } as never)

    const { rows } = await drizzle.execute(
      sql`select description_html, title from events_locales where _parent_id = ${event.id}`,
    )
    expect(rows).toEqual([
      {
        description_html: '<p>Intro</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>',
        title: event.title,
      },
    ])
  })
})
