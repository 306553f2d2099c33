/**
 * The calendar as an npm package: `npm run build:package`, `npm pack`, then a real
 * `npm install` of the tarball into a scratch app, and the bare app's config run on what that install
 * holds, over HTTP. The scratch app lives under this repository's `.data/`, so Node finds Payload and
 * React by walking up to this repository's node_modules: it stands for an app that already has them,
 * and the install must bring none of its own (`--omit=peer` keeps npm from writing the peers it
 * would otherwise add to an app that lacks them).
 */
import { execFile } from 'node:child_process'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../support/api'
import { BARE_NAMESPACE, startBareApp, type BareApp, type Calendar } from '../plugin/bareApp'

const root = path.resolve(import.meta.dirname, '../..')
const scratch = path.join(root, '.data', 'package-app')
const installed = path.join(scratch, 'node_modules', 'cal-events')
const namespace = `/api/${BARE_NAMESPACE}`

/** npm as a developer runs it: without the settings `npm test` hands its children (its prefix above all). */
async function npm(args: string[], cwd: string): Promise<string> {
  const env = { ...process.env }
  for (const name of Object.keys(env)) if (/^npm_/i.test(name)) delete env[name]
  const { stdout } = await promisify(execFile)('npm', args, {
    cwd,
    env,
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout
}

let packedFiles: string[]
let installSeconds: number
let resolve: NodeJS.RequireResolve
let app: BareApp
let token: string

async function send(route: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(`${app.url}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.json ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `JWT ${token}` } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : undefined,
  })
  return { status: response.status, body: await response.json() }
}

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
  await npm(['run', 'build:package'], root)
  await rm(scratch, { recursive: true, force: true })
  await mkdir(scratch, { recursive: true })
  const [packed] = JSON.parse(
    await npm(['pack', './dist', '--pack-destination', scratch, '--json'], root),
  ) as { filename: string; files: { path: string }[] }[]
  packedFiles = packed!.files.map((file) => file.path)
  await writeFile(
    path.join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }),
  )
  const started = performance.now()
  await npm(
    [
      'install',
      path.join(scratch, packed!.filename),
      '--prefix',
      scratch,
      '--omit=peer',
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
    ],
    scratch,
  )
  installSeconds = (performance.now() - started) / 1000
  console.log(`npm install of the tarball: ${installSeconds.toFixed(1)} s`)

  resolve = createRequire(path.join(scratch, 'package.json')).resolve
  const load = async (specifier: string) =>
    (await import(pathToFileURL(resolve(specifier)).href)) as Partial<Calendar>
  const calendar = {
    ...(await load('cal-events')),
    ...(await load('cal-events/routes')),
  } as Calendar
  app = await startBareApp(process.env.DATABASE_URL, calendar)
  await send('/api/users/first-register', {
    method: 'POST',
    json: { email: 'dev@package.test', password: 'package-password-1' },
  })
  token = (
    await send('/api/users/login', {
      method: 'POST',
      json: { email: 'dev@package.test', password: 'package-password-1' },
    })
  ).body.token
}, 300_000)

afterAll(async () => {
  await app?.close()
})

describe('the packed plugin installed with npm', () => {
  it('packs the built package only: no sources, no app types', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'index.js',
        'rsc.js',
        'client.js',
        'routes.js',
        'widget.js',
        'types/plugin.d.ts',
      ]),
    )
    for (const file of packedFiles)
      expect(file).toMatch(/^(package\.json|README\.md|[\w/-]+\.js|types\/[\w/.-]+\.d\.ts)$/)
    expect(packedFiles).not.toContain('types/payload-types.d.ts')
  })

  it('resolves every export to the install, and runs on the app’s Payload rather than a copy of its own', async () => {
    for (const specifier of [
      'cal-events',
      'cal-events/rsc',
      'cal-events/client',
      'cal-events/routes',
      'cal-events/widget.js',
    ])
      expect(resolve(specifier).startsWith(`${installed}/`)).toBe(true)
    // The browser's script, whole: it defines the element and imports nothing.
    const widget = await readFile(resolve('cal-events/widget.js'), 'utf8')
    expect(widget).toContain('customElements.define("cal-events"')
    expect(widget).not.toMatch(/\bimport\b|\brequire\(/)
    const fromPlugin = createRequire(resolve('cal-events')).resolve('payload')
    expect(fromPlugin).toBe(createRequire(path.join(root, 'package.json')).resolve('payload'))
    expect(await readdir(path.join(scratch, 'node_modules'))).not.toContain('payload')
  })

  it('ships declarations a strict TypeScript app resolves under Node’s own module resolution', async () => {
    const check = `import { calendarPlugin, type CalendarPluginOptions } from 'cal-events'
import { languageRootHandlers, refuseUnservedMethod } from 'cal-events/routes'
import { ApiReferenceLink } from 'cal-events/rsc'
import { RecurrenceField, SeriesInfo } from 'cal-events/client'
import type { Payload, TextareaFieldClientComponent, UIFieldClientComponent } from 'payload'

const options: CalendarPluginOptions = { languages: ['en', 'fr'], namespace: 'calendar/v2' }
export const plugin = calendarPlugin(options)
export const { GET, HEAD } = languageRootHandlers(Promise.reject(new Error('types only')))
export const refuse: (...args: Parameters<typeof refuseUnservedMethod>) => boolean = refuseUnservedMethod
export const link: (props: { payload: Payload }) => unknown = ApiReferenceLink
export const editor: TextareaFieldClientComponent = RecurrenceField
export const series: UIFieldClientComponent = SeriesInfo
// @ts-expect-error an option the plugin does not have
calendarPlugin({ namepsace: 'calendar/v2' })
`
    await writeFile(path.join(scratch, 'check.ts'), check)
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    }
    await writeFile(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['check.ts'] }),
    )
    // tsc exits non-zero on an unresolved export or a type left `any`; its report is the failure's message.
    await promisify(execFile)(path.join(root, 'node_modules', '.bin', 'tsc'), [
      '-p',
      scratch,
    ]).catch((error: { stdout: string }) => {
      throw new Error(error.stdout)
    })
  })

  it('serves the namespace: index, a created event, the list holding it', async () => {
    const index = await send(namespace)
    expect(index.status).toBe(200)
    expect(index.body.namespace).toBe(BARE_NAMESPACE)

    const created = await send(`${namespace}/events`, {
      method: 'POST',
      json: {
        title: 'Packed premiere',
        start_date: '2032-05-01 19:00:00',
        end_date: '2032-05-01 22:00:00',
        capacity: 40,
      },
    })
    expect(created.status).toBe(201)
    expect(created.body.custom_fields.capacity).toEqual({ label: 'Capacity', value: 40 })

    const list = await send(`${namespace}/events?start_date=2032-05-01&end_date=2032-05-02`)
    expect(list.status).toBe(200)
    expect(list.body.events.map((event: { id: number }) => event.id)).toEqual([created.body.id])
  })

  it('serves the language roots from the exported route handlers, for the namespace only', async () => {
    const french = await send(`/fr${namespace}/events?start_date=2032-05-01&end_date=2032-05-02`)
    expect(french.status).toBe(200)
    expect(french.body.total).toBe(1)
    const outside = await send('/fr/api/users')
    expect([outside.status, outside.body.code]).toEqual([404, 'rest_no_route'])
  })

  it('refuses a method no route serves with the exported refusal, as the README’s example app uses it', async () => {
    for (const [path, status, code] of [
      [`${namespace}/events`, 404, 'rest_no_route'],
      ['/api/users', 405, 'rest_method_not_allowed'],
    ] as const) {
      const reply = await rawRequest('TRACE', path, {}, app.url)
      expect({ path, status: reply.status }).toEqual({ path, status })
      expect(JSON.parse(reply.text)).toMatchObject({ code, data: { status } })
    }
  })
})
