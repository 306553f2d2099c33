/**
 * `npm run backup` and `npm run restore` as an operator runs them: a backup of a live `npm start`
 * while events are being written, restored into a fresh DATA_DIR, whose `npm start` then serves
 * every record, user, API key and image as they were.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { create, extract, list } from 'tar'
import {
  client,
  clusterUrl,
  emptyDataDir,
  interruptedRun,
  npmRun,
  npmStart,
  type Outcome,
  type Started,
} from '../support/operator'
import { heldWhileWaiting } from '../support/rowHolder'

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWP4z8AARwgWOgcA9TEL9UV+YsgAAAAASUVORK5CYII='
const ADMIN = { email: 'operator@calendar.test', password: 'operator-password-1' }
const NS = '/api/cal/events/v1'
const TIMEOUT = 600_000

const original = emptyDataDir('original')
const restored = emptyDataDir('restored')
const archive = path.join(emptyDataDir('archives'), 'calendar.tar.gz')
const deleting = emptyDataDir('deleting')
const running: Started[] = []

afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()))
  for (const directory of [original, restored, path.dirname(archive), deleting])
    rmSync(directory, { recursive: true, force: true })
})

/** Both servers on one address: media URLs carry the server's. */
let port: number | undefined

async function start(dataDir: string): Promise<Started> {
  const server = await npmStart(dataDir, {}, port)
  port = Number(new URL(server.base).port)
  running.push(server)
  return server
}

async function stop(server: Started): Promise<void> {
  await server.stop()
  running.splice(running.indexOf(server), 1)
}

async function signIn(request: ReturnType<typeof client>): Promise<string> {
  const login = await request('/api/users/login', { method: 'POST', json: ADMIN })
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  return login.body.token as string
}

/**
 * `npm run backup -- --out out` of `dataDir`'s running cluster, running `meanwhile` between the
 * database's copy (after pg_backup_stop) and the files' second copy: in between the backup reads the
 * migrations applied, and waits there while the test holds their table.
 */
function backupWhile(dataDir: string, out: string, meanwhile: () => void): Promise<Outcome> {
  return heldWhileWaiting(
    clusterUrl(dataDir),
    ['lock table payload_migrations in access exclusive mode', []],
    () => npmRun('backup', ['--out', out], dataDir),
    async () => meanwhile(),
    120,
  )
}

/** The content revision of the database `dataDir`'s running server serves (docs/api.md §14.3). */
async function revisionOf(dataDir: string): Promise<bigint> {
  const db = new pg.Client({ connectionString: clusterUrl(dataDir) })
  await db.connect()
  try {
    const { rows } = await db.query<{ value: string }>(
      'select value from calendar_revision where id = 1',
    )
    return BigInt(rows[0]!.value)
  } finally {
    await db.end()
  }
}

/** Everything an administrator can read of the site, by collection, with every language. */
async function everything(
  request: ReturnType<typeof client>,
  token: string,
): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {}
  for (const collection of [
    'events',
    'venues',
    'organizers',
    'event-categories',
    'event-tags',
    'users',
    'media',
  ]) {
    const reply = await request(
      `/api/${collection}?pagination=false&depth=0&locale=all&sort=id&trash=true`,
      { token },
    )
    expect(reply.status, `${collection}: ${JSON.stringify(reply.body)}`).toBe(200)
    all[collection] = reply.body.docs
  }
  return all
}

describe('backup and restore of the embedded database', () => {
  it(
    'restore a backup taken during writes into a fresh DATA_DIR: every record, user, API key and image as backed up, at a content revision past the lost one',
    async () => {
      const first = await start(original)
      const request = client(first.base)
      expect(
        (await request('/api/users/first-register', { method: 'POST', json: ADMIN })).status,
      ).toBeLessThan(300)
      const token = await signIn(request)
      const me = await request('/api/users/me', { token })
      const apiKey = 'a1b2c3d4-0000-4000-8000-backup000001'
      expect(
        (
          await request(`/api/users/${me.body.user.id}`, {
            method: 'PATCH',
            token,
            json: { enableAPIKey: true, apiKey },
          })
        ).status,
      ).toBe(200)
      const form = new FormData()
      form.append(
        'file',
        new Blob([Buffer.from(PNG, 'base64')], { type: 'image/png' }),
        'poster.png',
      )
      form.append('_payload', JSON.stringify({ alt: 'Poster' }))
      const media = await request('/api/media', { method: 'POST', token, body: form })
      expect(media.status, JSON.stringify(media.body)).toBe(201)
      const venue = await request(`${NS}/venues`, {
        method: 'POST',
        token,
        json: { venue: 'Backup Hall', city: 'Lyon' },
      })
      expect(venue.status).toBe(201)
      for (let i = 0; i < 5; i++) {
        const event = await request(`${NS}/events`, {
          method: 'POST',
          token,
          json: {
            title: `Before ${i}`,
            status: 'publish',
            start_date: `2031-03-0${i + 1} 10:00:00`,
            end_date: `2031-03-0${i + 1} 12:00:00`,
            venue: venue.body.id,
            image: media.body.doc.id,
          },
        })
        expect(event.status, JSON.stringify(event.body)).toBe(201)
      }

      // Writes keep coming while the backup runs; those answered before it started must be in it.
      const answered: number[] = []
      let writing = true
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          const event = await request(`${NS}/events`, {
            method: 'POST',
            token,
            json: {
              title: `During ${i}`,
              start_date: '2031-04-01 10:00:00',
              end_date: '2031-04-01 11:00:00',
              description: `<p>Written ${i}</p>`,
            },
          })
          expect(event.status, JSON.stringify(event.body)).toBe(201)
          answered.push(event.body.id as number)
        }
      })()
      while (answered.length < 3) await new Promise((resolve) => setTimeout(resolve, 100))
      const beforeBackup = [...answered]
      const backup = await npmRun('backup', ['--out', archive], original)
      const afterBackup = answered.length
      while (answered.length < afterBackup + 3)
        await new Promise((resolve) => setTimeout(resolve, 100))
      writing = false
      await writer
      expect(backup.code, backup.stderr).toBe(0)
      expect(backup.stdout).toMatch(
        new RegExp(`^wrote ${archive} \\(\\d+\\.\\d MB, \\d+ bytes\\)\\n$`),
      )
      expect(beforeBackup.length).toBeGreaterThan(0)
      // It holds the signing secret: for its owner alone, whatever the umask.
      expect((statSync(archive).mode & 0o777).toString(8)).toBe('600')

      const before = await everything(request, token)
      const image = await request(`/api/media/file/${media.body.doc.filename}`)
      expect(image.status).toBe(200)
      const reached = await revisionOf(original)
      await stop(first)

      const restore = await npmRun('restore', [archive], restored)
      expect(restore.code, restore.stderr).toBe(0)
      expect(restore.stdout).toContain(`restored ${archive}`)

      const second = await start(restored)
      const again = client(second.base)
      // Counted on from the backup's value, the restored counter would name again revisions the
      // lost database reached after it, and clients' ETags of those would match other content.
      expect(await revisionOf(restored)).toBeGreaterThan(reached)
      // The token signed before the backup still works: signing in again would add a session to the user.
      const after = await everything(again, token)
      // Everything but the events written during the backup is exactly as it was.
      for (const collection of [
        'venues',
        'organizers',
        'event-categories',
        'event-tags',
        'users',
        'media',
      ]) {
        expect(after[collection], collection).toEqual(before[collection])
      }
      const byId = new Map((before.events as { id: number }[]).map((event) => [event.id, event]))
      const restoredIds = (after.events as { id: number }[]).map((event) => event.id)
      for (const event of after.events as { id: number }[])
        expect(event).toEqual(byId.get(event.id))
      for (const id of beforeBackup) expect(restoredIds).toContain(id)
      expect(restoredIds.filter((id) => !answered.includes(id))).toHaveLength(5)
      expect(restoredIds.length).toBeLessThan(before.events!.length)

      const imageAgain = await again(`/api/media/file/${media.body.doc.filename}`)
      expect(imageAgain.status).toBe(200)
      expect(Buffer.compare(imageAgain.body, image.body)).toBe(0)
      const byKey = await again('/api/users/me', { apiKey })
      expect(byKey.body.user?.email).toBe(ADMIN.email)
      await signIn(again)
      const listed = await again(
        `${NS}/events?per_page=50&start_date=2031-03-01&end_date=2031-03-31`,
      )
      expect(listed.body.events.map((event: { title: string }) => event.title)).toEqual([
        'Before 0',
        'Before 1',
        'Before 2',
        'Before 3',
        'Before 4',
      ])
      await stop(second)
    },
    TIMEOUT,
  )

  it(
    'refuse a DATA_DIR that holds a database unless --force, and a failed backup leaves no file',
    async () => {
      const refused = await npmRun('restore', [archive], restored)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(
        `${restored} is not empty (postgres, secret, media): restore into an empty DATA_DIR, or add --force`,
      )

      // The archive is written whole, then renamed onto --out: here the rename fails at the very end.
      const occupied = path.join(path.dirname(archive), 'occupied')
      mkdirSync(occupied)
      writeFileSync(path.join(occupied, 'keep'), 'x')
      const failed = await npmRun('backup', ['--out', occupied], restored)
      expect(failed.code).toBe(1)
      expect(failed.stdout).toBe('')
      expect(readdirSync(occupied)).toEqual(['keep'])
      expect(readdirSync(path.dirname(archive)).sort()).toEqual(['calendar.tar.gz', 'occupied'])
      expect(existsSync(path.join(restored, 'postgres', 'postmaster.pid'))).toBe(false)

      // An archive cut short is refused with the extraction's reason, nothing of it left behind.
      const cut = path.join(path.dirname(archive), 'cut.tar.gz')
      writeFileSync(cut, readFileSync(archive).subarray(0, Math.floor(statSync(archive).size / 2)))
      const empty = emptyDataDir('cut')
      const truncated = await npmRun('restore', [cut], empty)
      expect(truncated.code).toBe(1)
      expect(truncated.stderr).not.toContain('ENOTEMPTY')
      expect(truncated.stderr).toMatch(/TAR_BAD_ARCHIVE|unexpected end|zlib|Z_BUF_ERROR|truncated/i)
      expect(readdirSync(empty).filter((name) => name.startsWith('.restore-'))).toEqual([])

      const forced = await npmRun('restore', [archive, '--force'], restored)
      expect(forced.code, forced.stderr).toBe(0)

      // A DATA_DIR that holds no database (mistyped) is refused, not given an empty one to back up.
      const mistyped = emptyDataDir('mistyped')
      const nothing = await npmRun('backup', ['--out', path.join(mistyped, 'x.tar.gz')], mistyped)
      expect(nothing.code).toBe(1)
      expect(nothing.stderr).toContain(`${mistyped} holds no database to back up`)
      expect(readdirSync(mistyped)).toEqual([])
      // An archive written into a folder it copies would copy itself.
      const intoMedia = await npmRun(
        'backup',
        ['--out', path.join(restored, 'media', 'self.tar.gz')],
        restored,
      )
      expect(intoMedia.code).toBe(2)
      expect(intoMedia.stderr).toContain('which the backup copies')
      expect(existsSync(path.join(restored, 'media', 'self.tar.gz'))).toBe(false)
    },
    TIMEOUT,
  )

  it(
    'refuse an archive holding links, keep what --force would replace when the archive cannot be started, and stop no process but their own',
    async () => {
      const marker = path.join(restored, 'media', 'kept-by-a-failed-restore.txt')
      writeFileSync(marker, 'before')
      const unpackedArchive = emptyDataDir('unpacked')
      await extract({ file: archive, cwd: unpackedArchive })
      const repacked = async (name: string) => {
        const file = path.join(path.dirname(archive), name)
        await create({ gzip: true, file, cwd: unpackedArchive }, readdirSync(unpackedArchive))
        return file
      }
      const leftovers = () =>
        readdirSync(restored).filter((name) => /^\.(restore|before-restore)-/.test(name))

      // Links that node-tar takes for paths inside the folder climb out of it on disk, one `..` each.
      const database = path.join(unpackedArchive, 'database')
      symlinkSync('..', path.join(database, 'u1'))
      symlinkSync('u1/..', path.join(database, 'u2'))
      const linked = await npmRun('restore', [await repacked('linked.tar.gz'), '--force'], restored)
      expect(linked.code).toBe(1)
      expect(linked.stderr).toContain('holds entries other than files and folders, database/u1')
      rmSync(path.join(database, 'u1'))
      rmSync(path.join(database, 'u2'))

      // A newer release's archive names a migration this release does not have: restored, it was
      // then refused by `npm start`, what it replaced gone.
      const manifestFile = path.join(unpackedArchive, 'backup.json')
      const manifest = readFileSync(manifestFile, 'utf8')
      const later = '20991231_000000_of_a_newer_release'
      const { migrations } = JSON.parse(manifest) as { migrations: string[] }
      writeFileSync(
        manifestFile,
        JSON.stringify({ ...JSON.parse(manifest), migrations: [...migrations, later] }),
      )
      const newer = await npmRun('restore', [await repacked('newer.tar.gz'), '--force'], restored)
      expect(newer.code).toBe(1)
      expect(newer.stderr).toContain(
        `was made by a newer release (migrations this release does not know: ${later}), so nothing was replaced`,
      )
      expect(readFileSync(marker, 'utf8')).toBe('before')
      expect(leftovers()).toEqual([])
      writeFileSync(manifestFile, manifest)

      // Its WAL gone, the archive's cluster cannot start: the one it would have replaced stays.
      const wal = path.join(database, 'pg_wal')
      for (const name of readdirSync(wal).filter((entry) => /^[0-9A-F]{24}$/.test(entry)))
        rmSync(path.join(wal, name))
      const broken = await npmRun('restore', [await repacked('broken.tar.gz'), '--force'], restored)
      expect(broken.code).toBe(1)
      expect(broken.stderr).toContain('could not be started as a database, so nothing was replaced')
      expect(readFileSync(marker, 'utf8')).toBe('before')
      expect(leftovers()).toEqual([])

      // A postmaster.pid left by an unclean stop, its pid another process's by now.
      const bystander = spawn('sleep', ['600'], { stdio: 'ignore' })
      try {
        writeFileSync(path.join(restored, 'postgres', 'postmaster.pid'), `${bystander.pid}\n`)
        const backup = await npmRun(
          'backup',
          ['--out', path.join(path.dirname(archive), 'after-stale-pid.tar.gz')],
          restored,
        )
        expect(backup.code, backup.stderr).toBe(0)
        expect(bystander.exitCode).toBeNull()
        expect(bystander.signalCode).toBeNull()
      } finally {
        bystander.kill()
      }
      rmSync(unpackedArchive, { recursive: true, force: true })

      // "The way back" on a database this release made: its last batch is every migration.
      const down = await npmRun('payload', ['migrate:down'], restored)
      expect(down.code).toBe(1)
      expect(down.stderr).toContain("the last batch of migrations is this database's first")
      const status = await npmRun('payload', ['migrate:status'], restored)
      expect(status.code, status.stderr).toBe(0)
      expect(status.stdout).not.toMatch(/\bNo\b/)
    },
    TIMEOUT,
  )

  it(
    'stopped by Ctrl-C, a backup leaves no partial file, and a restore leaves DATA_DIR as it was or finishes',
    async () => {
      const folder = path.dirname(archive)
      const out = path.join(folder, 'interrupted.tar.gz')
      const partials = () => readdirSync(folder).filter((name) => name.includes('.partial-'))
      const backup = await interruptedRun('backup', ['--out', out], restored, () =>
        partials().some((name) => name.endsWith('.d')),
      )
      expect(backup.signalled).toBe(true)
      expect(backup.code).toBe(130)
      expect(partials()).toEqual([])
      expect(existsSync(out)).toBe(false)
      expect(existsSync(path.join(restored, 'postgres', 'postmaster.pid'))).toBe(false)

      const marker = path.join(restored, 'media', 'kept-by-an-interrupted-restore.txt')
      writeFileSync(marker, 'before')
      const leftovers = (prefix = '') =>
        readdirSync(restored).filter((name) =>
          new RegExp(`^\\.(${prefix || 'restore|before-restore'})-`).test(name),
        )
      // While the archive is unpacked nothing has been replaced: the restore stops there.
      const unpacking = await interruptedRun(
        'restore',
        [archive, '--force'],
        restored,
        () => leftovers('restore').length > 0,
      )
      expect(unpacking.signalled).toBe(true)
      expect(unpacking.code, unpacking.stderr).toBe(130)
      expect(leftovers()).toEqual([])
      expect(readFileSync(marker, 'utf8')).toBe('before')

      // Once it has moved DATA_DIR's contents aside, it finishes (stopped there, it left them aside).
      const replacing = await interruptedRun(
        'restore',
        [archive, '--force'],
        restored,
        () => leftovers('before-restore').length > 0,
      )
      expect(replacing.signalled).toBe(true)
      expect(replacing.code, replacing.stderr).toBe(0)
      expect(replacing.stderr).toContain('SIGINT: the restore has begun to replace')
      expect(replacing.stdout).toContain(`restored ${archive}`)
      expect(leftovers()).toEqual([])
      expect(existsSync(marker)).toBe(false)
      expect(existsSync(path.join(restored, 'postgres', 'PG_VERSION'))).toBe(true)
    },
    TIMEOUT,
  )

  it(
    'hold the files of the images the backed-up database names as the database names them, though one is deleted and one replaced once the database is copied',
    async () => {
      const server = await start(deleting)
      const request = client(server.base)
      expect(
        (await request('/api/users/first-register', { method: 'POST', json: ADMIN })).status,
      ).toBeLessThan(300)
      const token = await signIn(request)
      const upload = async (name: string) => {
        const form = new FormData()
        form.append('file', new Blob([Buffer.from(PNG, 'base64')], { type: 'image/png' }), name)
        form.append('_payload', JSON.stringify({ alt: name }))
        const media = await request('/api/media', { method: 'POST', token, body: form })
        expect(media.status, JSON.stringify(media.body)).toBe(201)
        const file = path.join(deleting, 'media', media.body.doc.filename as string)
        expect(existsSync(file)).toBe(true)
        return file
      }
      const deleted = await upload('late.png')
      const replaced = await upload('replaced.png')
      // Same size, other bytes: a file rewritten in place, as the database's rows may by then describe.
      const newContent = Buffer.from(PNG, 'base64').reverse()

      // Both change the moment the database's copy has ended (after pg_backup_stop), the one as a
      // delete of the image would take it (Payload removes the file first), before the backup copies
      // the files a second time.
      const unpacked = path.join(deleting, 'unpacked')
      mkdirSync(unpacked)
      const out = path.join(deleting, 'archives', 'late.tar.gz')
      const backup = await backupWhile(deleting, out, () => {
        rmSync(deleted)
        writeFileSync(replaced, newContent)
      })
      expect(backup.code, backup.stderr).toBe(0)
      expect(existsSync(deleted)).toBe(false)
      const entries: string[] = []
      await list({ file: out, onReadEntry: (entry) => void entries.push(entry.path) })
      expect(entries).toContain(`media/${path.basename(deleted)}`)
      await extract({ file: out, cwd: unpacked }, [`media/${path.basename(replaced)}`])
      const archived = readFileSync(path.join(unpacked, 'media', path.basename(replaced)))
      expect(
        archived.equals(newContent),
        'the archive holds the replaced file as first copied',
      ).toBe(true)
      await stop(server)
    },
    TIMEOUT,
  )
})
