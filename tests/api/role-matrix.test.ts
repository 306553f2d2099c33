/**
 * The whole permission matrix (docs/api.md §2, docs/api.md §2, §5, §6.1, §6.7): every role
 * (anonymous, subscriber, contributor, author, editor, administrator) × operation × ownership (the
 * caller's own item, someone else's) × status (draft, pending, private, publish, trash, and published
 * with a password) for events, venues and organizers, through the namespace and through Payload's own
 * REST API. Each cell has one expected answer, computed by the rules below from docs/api.md §2; a test
 * runs all cells of one operation and reports every cell that differs, as
 * `role/ownership/status: expected … got …`.
 *
 * Namespace: anonymous callers get 401 and signed-in ones 403 when a permission check fails; reads of
 * items a caller may not see are upstream's 403s (`event-not-accessible`...). Payload REST answers 403
 * for writes whoever asks, and 404 for documents the caller may not read.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, type Reply, unique, userWithRole } from '../support/api'

type Role = 'anonymous' | 'subscriber' | 'contributor' | 'author' | 'editor' | 'administrator'
type Status = 'draft' | 'pending' | 'private' | 'publish' | 'trash' | 'protected'
type Kind = 'events' | 'venues' | 'organizers'
type Owner = 'own' | 'others'
type Cell = { role: Role; owner: Owner; status: Status }

const ROLES: Role[] = [
  'anonymous',
  'subscriber',
  'contributor',
  'author',
  'editor',
  'administrator',
]
const STATUSES: Status[] = ['draft', 'pending', 'private', 'publish', 'trash', 'protected']
const KINDS: Kind[] = ['events', 'venues', 'organizers']
const SINGULAR: Record<Kind, string> = { events: 'event', venues: 'venue', organizers: 'organizer' }
/** The name field of each kind in Payload and in the namespace. */
const NAME_FIELD: Record<Kind, string> = { events: 'title', venues: 'name', organizers: 'name' }
const NS_NAME: Record<Kind, string> = { events: 'title', venues: 'venue', organizers: 'organizer' }
/** A content field that a password withholds (Payload field name, namespace key). */
const CONTENT: Record<Kind, { field: string; key: string; value: string }> = {
  events: { field: 'website', key: 'website', value: 'https://matrix-secret.example/' },
  venues: { field: 'city', key: 'city', value: 'matrix-secret-city' },
  organizers: { field: 'email', key: 'email', value: 'matrix-secret@example.org' },
}
const PASSWORD = `matrix-${randomUUID()}`
const START = '2031-03-01T10:00:00.000Z'
const END = '2031-03-01T12:00:00.000Z'

// ---------------------------------------------------------------------------------------------------
// The rules, from docs/api.md §2

const editsOthers = (role: Role) => role === 'editor' || role === 'administrator'
/** Roles with `edit_posts`: they may create, and lists show them every status but trash. */
const writer = (role: Role) => role === 'contributor' || role === 'author' || editsOthers(role)
const stored = (status: Status) => (status === 'protected' ? 'publish' : status)

/** `capabilities.edit`: editors any; authors their own; contributors their own drafts and pending items. */
function mayEdit({ role, owner, status }: Cell): boolean {
  if (editsOthers(role)) return true
  if (role === 'author') return owner === 'own'
  if (role === 'contributor') return owner === 'own' && (status === 'draft' || status === 'pending')
  return false
}

/** `read_post` on a non-public item: editors, and authors and contributors on their own. */
function mayReadUnpublished({ role, owner }: Cell): boolean {
  return editsOthers(role) || ((role === 'author' || role === 'contributor') && owner === 'own')
}

/** Payload's collection read access: everything for editors, published or own for writers, published for the rest. */
function payloadReadable(cell: Cell): boolean {
  return (
    editsOthers(cell.role) ||
    stored(cell.status) === 'publish' ||
    (writer(cell.role) && cell.owner === 'own')
  )
}

const forbidden = (role: Role) =>
  role === 'anonymous' ? '401 rest_forbidden' : '403 rest_forbidden'

/** `GET /{kind}/{id}` (docs/api.md §5; docs/api.md §9). `unlock`: how the caller tries to open a protected item. */
function namespaceRead(kind: Kind, cell: Cell, unlock: 'none' | 'password' | 'edit'): string {
  const { status } = cell
  if (kind === 'events') {
    if (status === 'trash') return '403 event-no-longer-available'
    if (status !== 'publish' && status !== 'protected' && !mayReadUnpublished(cell))
      return '403 event-not-accessible'
    if (status !== 'protected') return '200'
    if (unlock === 'password' || (unlock === 'edit' && mayEdit(cell))) return '200'
    return '403 event-password-protected'
  }
  if (status !== 'publish' && status !== 'protected' && !mayReadUnpublished(cell))
    return `403 ${SINGULAR[kind]}-not-accessible`
  if (status !== 'protected') return '200'
  return unlock === 'password' || (unlock === 'edit' && mayEdit(cell))
    ? '200 shown'
    : '200 withheld'
}

/** Whether a namespace list shows the item (docs/api.md §2, docs/api.md §4.4): no `status` parameter. */
function namespaceListed(cell: Cell): string {
  const shown = writer(cell.role)
    ? cell.status !== 'trash' && payloadReadable(cell)
    : stored(cell.status) === 'publish'
  return shown ? 'listed' : 'absent'
}

/** A list with `status=<the item's status>`: only writers may ask for anything but publish. */
function namespaceListedByStatus(cell: Cell): string {
  if (!writer(cell.role) && stored(cell.status) !== 'publish') return '400 rest_invalid_param'
  return payloadReadable(cell) ? 'listed' : 'absent'
}

/** Status given to a new item (docs/api.md §2): publishers get what they ask (publish by default), contributors are scaled back. */
function scaled(role: Role, requested: string | undefined, absent: string): string {
  if (role === 'contributor')
    return requested === 'publish' || requested === 'future' || requested === 'private'
      ? 'pending'
      : (requested ?? absent)
  return requested ?? absent
}

function namespaceCreate(role: Role, requested: string | undefined): string {
  if (!writer(role)) return forbidden(role)
  return `201 ${scaled(role, requested, role === 'contributor' ? 'draft' : 'publish')}`
}

function namespaceUpdate(cell: Cell): string {
  if (!mayEdit(cell)) return forbidden(cell.role)
  return '200'
}

function namespaceTrash(kind: Kind, cell: Cell): string {
  if (!mayEdit(cell)) return forbidden(cell.role)
  return cell.status === 'trash' ? `410 ${SINGULAR[kind]}-is-in-trash` : '200'
}

function payloadRead(cell: Cell): string {
  if (!payloadReadable(cell)) return '404'
  if (cell.status !== 'protected') return '200'
  return mayEdit(cell) ? '200 shown' : '200 withheld'
}

function payloadCreate(role: Role, requested: string | undefined): string {
  // Payload applies the field's default (draft) when no status is sent.
  return writer(role) ? `201 ${scaled(role, requested, 'draft')}` : '403'
}

function payloadWrite(cell: Cell): string {
  return mayEdit(cell) ? '200' : '403'
}

// ---------------------------------------------------------------------------------------------------
// Callers and items

type Caller = { role: Role; token?: string; id?: number }

const callers = {} as Record<Role, Caller>
let others: Caller
let admin: string
const TAG = unique('mx')

/** Every cell of the matrix: anonymous callers own nothing. */
function cells(): Cell[] {
  return ROLES.flatMap((role) =>
    (['own', 'others'] as Owner[])
      .filter((owner) => role !== 'anonymous' || owner === 'others')
      .flatMap((owner) => STATUSES.map((status) => ({ role, owner, status }))),
  )
}

const label = (cell: Cell) => `${cell.role}/${cell.owner}/${cell.status}`

type Item = { id: number; slug: string; name: string }

/** Creates an item as the administrator through Payload's REST, owned by `authorId`, in `status`. */
async function createItem(
  kind: Kind,
  authorId: number,
  status: Status,
  note: string,
): Promise<Item> {
  const name = `${TAG} ${note} ${randomUUID().slice(0, 6)}`
  const data: Record<string, unknown> = {
    [NAME_FIELD[kind]]: name,
    status: stored(status),
    author: authorId,
    [CONTENT[kind].field]: CONTENT[kind].value,
  }
  if (kind === 'events') Object.assign(data, { start: START, end: END })
  if (status === 'protected') data.password = PASSWORD
  const reply = await call(`/api/${kind}?depth=0`, { method: 'POST', token: admin, json: data })
  if (reply.status !== 201)
    throw new Error(`creating ${kind} failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  const doc = reply.body.doc as { id: number; slug: string; status: string }
  if (doc.status !== stored(status))
    throw new Error(`created ${kind} ${doc.id} as ${doc.status}, not ${stored(status)}`)
  return { id: doc.id, slug: doc.slug, name }
}

function ownerOf(cell: Cell): number {
  return cell.owner === 'own' ? callers[cell.role].id! : others.id!
}

/** Runs `task` over `items` with `width` of them under way at any time; the results keep the items' order. */
async function pooled<T, R>(
  items: T[],
  task: (item: T, index: number) => Promise<R>,
  width = 10,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const n = next++
      results[n] = await task(items[n]!, n)
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker))
  return results
}

/** `200`, or `403 event-not-accessible`: the status and, for errors, the code. */
function outcome(reply: Reply): string {
  if (reply.status >= 400) return `${reply.status} ${reply.body?.code ?? ''}`.trim()
  return String(reply.status)
}

/** Compares every cell and fails once with the list of differing cells. */
function expectCells(results: { cell: string; expected: string; actual: string }[]): void {
  const wrong = results
    .filter((result) => result.expected !== result.actual)
    .map((result) => `${result.cell}: expected ${result.expected}, got ${result.actual}`)
  expect(wrong, `${wrong.length} of ${results.length} cells differ`).toEqual([])
}

/** Items for the read operations, which change nothing: one per kind × owner × status. */
const readItems = {} as Record<Kind, Map<string, Item>>
const ownerKey = (cell: Cell) => `${cell.owner === 'own' ? cell.role : 'others'}/${cell.status}`

beforeAll(async () => {
  admin = await asAdmin()
  const me = await call('/api/users/me', { token: admin })
  callers.anonymous = { role: 'anonymous' }
  callers.administrator = { role: 'administrator', token: admin, id: me.body.user.id as number }
  const roles = ['subscriber', 'contributor', 'author', 'editor'] as const
  const [other, ...users] = await Promise.all(
    ['author', ...roles].map((role) => userWithRole(role)),
  )
  users.forEach(
    (user, n) => (callers[roles[n]!] = { role: roles[n]!, token: user.token, id: user.id }),
  )
  others = { role: 'author', token: other!.token, id: other!.id }

  const owners = [
    ...(['subscriber', 'contributor', 'author', 'editor', 'administrator'] as Role[]).map(
      (role) => ({ key: role, id: callers[role].id! }),
    ),
    { key: 'others', id: others.id! },
  ]
  const wanted = KINDS.flatMap((kind) =>
    owners.flatMap((owner) => STATUSES.map((status) => ({ kind, owner, status }))),
  )
  const made = await pooled(wanted, ({ kind, owner, status }) =>
    createItem(kind, owner.id, status, `${owner.key}-${status}`),
  )
  for (const kind of KINDS) readItems[kind] = new Map()
  wanted.forEach(({ kind, owner, status }, n) =>
    readItems[kind].set(`${owner.key}/${status}`, made[n]!),
  )
}, 300_000)

function readItem(kind: Kind, cell: Cell): Item {
  return readItems[kind].get(ownerKey(cell))!
}

/**
 * Items for the update tests, one per kind and cell, made when first needed: updates change names and
 * descriptions, never the owner, status or password that decide the answer, so the update tests share
 * them (each test writes a name of its own). Trash tests change the status and get fresh items.
 */
const updateItems = new Map<string, Promise<Item>>()

function itemToUpdate(kind: Kind, cell: Cell): Promise<Item> {
  const key = `${kind} ${label(cell)}`
  let item = updateItems.get(key)
  if (!item) {
    item = createItem(kind, ownerOf(cell), cell.status, `upd-${label(cell)}`)
    updateItems.set(key, item)
  }
  return item
}

type Stored = Record<string, any>

/** The items as stored, read back by the administrator in one request; deleted items are absent. */
async function storedItems(kind: Kind, items: Item[]): Promise<Map<number, Stored>> {
  const where = items.map((item, n) => `where[id][in][${n}]=${item.id}`).join('&')
  const reply = await call(`/api/${kind}?${where}&limit=${items.length}&depth=0`, { token: admin })
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200)
  return new Map((reply.body.docs as Stored[]).map((doc) => [doc.id as number, doc]))
}

/** Each cell's write on its own item, then all the items read back at once. */
async function writeEachCell(
  kind: Kind,
  all: Cell[],
  itemOf: (cell: Cell) => Promise<Item>,
  write: (cell: Cell, item: Item) => Promise<Reply>,
) {
  const items = await pooled(all, itemOf)
  const replies = await pooled(all, (cell, n) => write(cell, items[n]!))
  const saved = await storedItems(kind, items)
  return all.map((cell, n) => ({
    cell,
    item: items[n]!,
    reply: replies[n]!,
    after: saved.get(items[n]!.id),
  }))
}

/** The shown/withheld state of a protected item's content in a namespace or Payload answer. */
function contentState(kind: Kind, body: Record<string, unknown>, key: string): string {
  return body[key] === CONTENT[kind].value ? 'shown' : 'withheld'
}

// ---------------------------------------------------------------------------------------------------
// The namespace

describe.each(KINDS)('the namespace: %s', (kind) => {
  for (const unlock of ['none', 'password', 'edit'] as const) {
    const query =
      unlock === 'password' ? `?password=${PASSWORD}` : unlock === 'edit' ? '?context=edit' : ''
    it(`GET /${kind}/{id}${query ? query.replace(PASSWORD, '<password>') : ''}: every role × ownership × status`, async () => {
      const results = await pooled(cells(), async (cell) => {
        const item = readItem(kind, cell)
        const reply = await call(`${NS}/${kind}/${item.id}${query}`, {
          token: callers[cell.role].token,
        })
        let actual = outcome(reply)
        if (reply.status === 200 && kind !== 'events' && cell.status === 'protected')
          actual += ` ${contentState(kind, reply.body, CONTENT[kind].key)}`
        if (reply.status === 200 && reply.body.password !== undefined)
          actual += ' (password returned)'
        return { cell: label(cell), expected: namespaceRead(kind, cell, unlock), actual }
      })
      expectCells(results)
    })
  }

  it(`GET /${kind}/by-slug/{slug}: the same answers as by id`, async () => {
    const results = await pooled(cells(), async (cell) => {
      const item = readItem(kind, cell)
      const reply = await call(`${NS}/${kind}/by-slug/${encodeURIComponent(item.slug)}`, {
        token: callers[cell.role].token,
      })
      let actual = outcome(reply)
      if (reply.status === 200 && kind !== 'events' && cell.status === 'protected')
        actual += ` ${contentState(kind, reply.body, CONTENT[kind].key)}`
      return { cell: label(cell), expected: namespaceRead(kind, cell, 'none'), actual }
    })
    expectCells(results)
  })

  /** One list request per role over all the read items of this kind; each cell is whether its item is in it. */
  async function listed(role: Role, status?: Status): Promise<{ reply: Reply; ids: Set<number> }> {
    const items = [...readItems[kind].values()]
    const statusQuery = status ? `&status=${stored(status)}` : ''
    const path =
      kind === 'events'
        ? `${NS}/events?per_page=50&include=${items.map((item) => item.id).join(',')}${statusQuery}`
        : `${NS}/${kind}?per_page=50&search=${TAG}${statusQuery}`
    const reply = await call(path, { token: callers[role].token })
    const ids = new Set<number>(
      reply.status === 200 ? (reply.body[kind] as { id: number }[]).map((item) => item.id) : [],
    )
    return { reply, ids }
  }

  it(`GET /${kind}: which items each role sees listed`, async () => {
    const lists = new Map<Role, Set<number>>()
    for (const role of ROLES) {
      const { reply, ids } = await listed(role)
      expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200)
      lists.set(role, ids)
    }
    expectCells(
      cells().map((cell) => ({
        cell: label(cell),
        expected: namespaceListed(cell),
        actual: lists.get(cell.role)!.has(readItem(kind, cell).id) ? 'listed' : 'absent',
      })),
    )
  })

  it(`GET /${kind}?status=…: only writers may ask for statuses other than publish, and see only what they may read`, async () => {
    const results = await pooled(cells(), async (cell) => {
      const { reply, ids } = await listed(cell.role, cell.status)
      const actual =
        reply.status === 200
          ? ids.has(readItem(kind, cell).id)
            ? 'listed'
            : 'absent'
          : outcome(reply)
      return { cell: label(cell), expected: namespaceListedByStatus(cell), actual }
    })
    expectCells(results)
  })

  it(`GET /${kind}: a protected item is listed with its content withheld, for everyone`, async () => {
    for (const role of ROLES) {
      const { ids, reply } = await listed(role)
      const protectedItem = readItems[kind].get('others/protected')!
      expect(ids.has(protectedItem.id), role).toBe(true)
      const shown = (reply.body[kind] as Record<string, unknown>[]).find(
        (item) => item.id === protectedItem.id,
      )!
      expect({
        role,
        state: contentState(kind, shown, CONTENT[kind].key),
        password: shown.password,
      }).toEqual({ role, state: 'withheld', password: undefined })
    }
  })

  it(`POST /${kind}: who may create, and the status each role gets`, async () => {
    const requests = ROLES.flatMap((role) =>
      [undefined, 'draft', 'pending', 'private', 'publish'].map((requested) => ({
        role,
        requested,
      })),
    )
    const results = await pooled(requests, async ({ role, requested }) => {
      const name = `${TAG} created ${randomUUID().slice(0, 6)}`
      const body: Record<string, unknown> = {
        [NS_NAME[kind]]: name,
        ...(requested ? { status: requested } : {}),
      }
      if (kind === 'events')
        Object.assign(body, { start_date: '2031-03-02 10:00:00', end_date: '2031-03-02 11:00:00' })
      const reply = await call(`${NS}/${kind}`, {
        method: 'POST',
        token: callers[role].token,
        json: body,
      })
      const actual = reply.status === 201 ? `201 ${reply.body.status}` : outcome(reply)
      if (reply.status === 201 && reply.body.author !== String(callers[role].id))
        return {
          cell: `${role}/${requested ?? '(none)'}`,
          expected: 'author is the caller',
          actual: `author ${reply.body.author}`,
        }
      return {
        cell: `${role}/${requested ?? '(none)'}`,
        expected: namespaceCreate(role, requested),
        actual,
      }
    })
    expectCells(results)
  })

  for (const method of ['PATCH', 'POST', 'PUT'] as const) {
    it(`${method} /${kind}/{id}: who may update which item`, async () => {
      const renamed = (item: Item) => `${item.name} ${method}`
      const written = await writeEachCell(
        kind,
        cells(),
        (cell) => itemToUpdate(kind, cell),
        (cell, item) =>
          call(`${NS}/${kind}/${item.id}`, {
            method,
            token: callers[cell.role].token,
            json: { [NS_NAME[kind]]: renamed(item) },
          }),
      )
      expectCells(
        written.map(({ cell, item, reply, after }) => {
          const changed = after?.[NAME_FIELD[kind]] === renamed(item)
          let actual = outcome(reply)
          if (changed !== (reply.status === 200))
            actual += changed ? ' (but the item changed)' : ' (but the item did not change)'
          if (after?.status !== stored(cell.status)) actual += ` (status became ${after?.status})`
          return { cell: label(cell), expected: namespaceUpdate(cell), actual }
        }),
      )
    })
  }

  it(`PATCH /${kind}/by-slug/{slug}: the per-item capability, not only the generic one`, async () => {
    const all = cells()
    const items = await pooled(all, (cell) => itemToUpdate(kind, cell))
    // Another update test may have renamed an item, and with it its slug.
    const before = await storedItems(kind, items)
    const results = await pooled(all, async (cell, n) => {
      const slug = before.get(items[n]!.id)!.slug as string
      const reply = await call(`${NS}/${kind}/by-slug/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        token: callers[cell.role].token,
        json: { description: 'changed by slug' },
      })
      return { cell: label(cell), expected: namespaceUpdate(cell), actual: outcome(reply) }
    })
    expectCells(results)
  })

  it(`DELETE /${kind}/{id}: who may trash which item (a second trash is a 410)`, async () => {
    const written = await writeEachCell(
      kind,
      cells(),
      (cell) => createItem(kind, ownerOf(cell), cell.status, `del-${label(cell)}`),
      (cell, item) =>
        call(`${NS}/${kind}/${item.id}`, { method: 'DELETE', token: callers[cell.role].token }),
    )
    expectCells(
      written.map(({ cell, reply, after }) => {
        let actual = outcome(reply)
        if (reply.status === 200 && reply.body.status !== 'trash')
          actual += ` (answered status ${reply.body.status})`
        if (!after) actual += ' (the item is gone)'
        else if ((after.status === 'trash') !== (cell.status === 'trash' || reply.status === 200))
          actual += ` (stored status ${after.status})`
        return { cell: label(cell), expected: namespaceTrash(kind, cell), actual }
      }),
    )
  })

  it(`DELETE /${kind}/by-slug/{slug}: the per-item capability`, async () => {
    const results = await pooled(cells(), async (cell) => {
      const item = await createItem(kind, ownerOf(cell), cell.status, `dslug-${label(cell)}`)
      const reply = await call(`${NS}/${kind}/by-slug/${encodeURIComponent(item.slug)}`, {
        method: 'DELETE',
        token: callers[cell.role].token,
      })
      return { cell: label(cell), expected: namespaceTrash(kind, cell), actual: outcome(reply) }
    })
    expectCells(results)
  })

  it(`PATCH and DELETE /${kind}/{id} of an id that does not exist: permission before the check against stored data`, async () => {
    const results = await pooled(
      ROLES.flatMap((role) => (['PATCH', 'DELETE'] as const).map((method) => ({ role, method }))),
      async ({ role, method }) => {
        const reply = await call(`${NS}/${kind}/2000000000`, {
          method,
          token: callers[role].token,
          json: method === 'PATCH' ? { [NS_NAME[kind]]: 'x' } : undefined,
        })
        // Permission first (docs/api.md §2), then events are a 404, venues and organizers a 400.
        const expected = !writer(role)
          ? forbidden(role)
          : kind === 'events'
            ? '404 rest-event-not-found'
            : '400 rest_invalid_param'
        return { cell: `${role}/${method}`, expected, actual: outcome(reply) }
      },
    )
    expectCells(results)
  })
})

// ---------------------------------------------------------------------------------------------------
// Payload's own REST API

describe.each(KINDS)('Payload REST: /api/%s', (kind) => {
  it(`GET /api/${kind}/{id}: readable items only, protected content withheld from those who may not edit`, async () => {
    const results = await pooled(cells(), async (cell) => {
      const item = readItem(kind, cell)
      const reply = await call(`/api/${kind}/${item.id}?depth=0`, {
        token: callers[cell.role].token,
      })
      let actual = String(reply.status)
      if (reply.status === 200 && cell.status === 'protected')
        actual += ` ${contentState(kind, reply.body, CONTENT[kind].field)}`
      if (reply.status === 200 && reply.body.password !== undefined && !mayEdit(cell))
        actual += ' (password returned)'
      return { cell: label(cell), expected: payloadRead(cell), actual }
    })
    expectCells(results)
  })

  it(`GET /api/${kind}: which items each role sees listed`, async () => {
    const ids = [...readItems[kind].values()].map((item) => item.id)
    const where = ids.map((id, n) => `where[id][in][${n}]=${id}`).join('&')
    const lists = new Map<Role, Set<number>>()
    for (const role of ROLES) {
      const reply = await call(`/api/${kind}?${where}&limit=100&depth=0`, {
        token: callers[role].token,
      })
      expect(reply.status).toBe(200)
      lists.set(role, new Set((reply.body.docs as { id: number }[]).map((doc) => doc.id)))
    }
    expectCells(
      cells().map((cell) => ({
        cell: label(cell),
        expected: payloadReadable(cell) ? 'listed' : 'absent',
        actual: lists.get(cell.role)!.has(readItem(kind, cell).id) ? 'listed' : 'absent',
      })),
    )
  })

  it(`POST /api/${kind}: who may create, and the status each role gets`, async () => {
    const requests = ROLES.flatMap((role) =>
      [undefined, 'draft', 'pending', 'private', 'publish'].map((requested) => ({
        role,
        requested,
      })),
    )
    const results = await pooled(requests, async ({ role, requested }) => {
      const data: Record<string, unknown> = {
        [NAME_FIELD[kind]]: `${TAG} p-created ${randomUUID().slice(0, 6)}`,
        ...(requested ? { status: requested } : {}),
      }
      if (kind === 'events') Object.assign(data, { start: START, end: END })
      const reply = await call(`/api/${kind}?depth=0`, {
        method: 'POST',
        token: callers[role].token,
        json: data,
      })
      const actual = reply.status === 201 ? `201 ${reply.body.doc.status}` : String(reply.status)
      return {
        cell: `${role}/${requested ?? '(none)'}`,
        expected: payloadCreate(role, requested),
        actual,
      }
    })
    expectCells(results)
  })

  it(`PATCH /api/${kind}/{id}: who may update which item`, async () => {
    const renamed = (item: Item) => `${item.name} payload`
    const written = await writeEachCell(
      kind,
      cells(),
      (cell) => itemToUpdate(kind, cell),
      (cell, item) =>
        call(`/api/${kind}/${item.id}?depth=0`, {
          method: 'PATCH',
          token: callers[cell.role].token,
          json: { [NAME_FIELD[kind]]: renamed(item) },
        }),
    )
    expectCells(
      written.map(({ cell, item, reply, after }) => {
        let actual = String(reply.status)
        if ((after?.[NAME_FIELD[kind]] === renamed(item)) !== (reply.status === 200))
          actual += ' (stored name disagrees)'
        return { cell: label(cell), expected: payloadWrite(cell), actual }
      }),
    )
  })

  it(`PATCH /api/${kind}/{id}: nobody but editors changes the author, and contributors cannot publish`, async () => {
    const written = await writeEachCell(
      kind,
      cells().filter((cell) => mayEdit(cell)),
      (cell) => createItem(kind, ownerOf(cell), cell.status, `pesc-${label(cell)}`),
      (cell, item) =>
        call(`/api/${kind}/${item.id}?depth=0`, {
          method: 'PATCH',
          token: callers[cell.role].token,
          json: {
            author: others.id === ownerOf(cell) ? callers.editor.id : others.id,
            status: 'publish',
          },
        }),
    )
    expectCells(
      written.map(({ cell, after }) => {
        const expectedAuthor = editsOthers(cell.role) ? 'changed' : 'kept'
        const expectedStatus = cell.role === 'contributor' ? 'pending' : 'publish'
        return {
          cell: label(cell),
          expected: `${expectedAuthor} ${expectedStatus}`,
          actual: `${after?.author === ownerOf(cell) ? 'kept' : 'changed'} ${after?.status}`,
        }
      }),
    )
  })

  it(`DELETE /api/${kind}/{id}: who may delete which item`, async () => {
    const written = await writeEachCell(
      kind,
      cells(),
      (cell) => createItem(kind, ownerOf(cell), cell.status, `pdel-${label(cell)}`),
      (cell, item) =>
        call(`/api/${kind}/${item.id}?depth=0`, {
          method: 'DELETE',
          token: callers[cell.role].token,
        }),
    )
    expectCells(
      written.map(({ cell, reply, after }) => {
        let actual = String(reply.status)
        if (!after !== (reply.status === 200))
          actual += ` (the item ${after ? 'is still there' : 'is gone'})`
        return { cell: label(cell), expected: payloadWrite(cell), actual }
      }),
    )
  })
})
