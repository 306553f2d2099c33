import type { CollectionSlug } from 'payload'
import { capabilities } from '../../calendar/access/capabilities'
import { RESOURCES } from '../../calendar/resources'
import { changesAfter, lastChange, type ChangeRow } from '../../database/changeLog'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import type { RestResult } from '../route'
import { CURSOR, type ChangesParams } from '../schemas/changes'

const DEFAULT_PER_PAGE = 100
const DAY_MS = 86_400_000

const HOUR_S = 3600

/**
 * A cursor names the last change read and when it was issued, to the hour: an answer stays the same
 * (its ETag too) for an hour, and a cursor expires at most an hour early.
 */
const cursorAt = (seq: string, now: Date) => `${seq}.${Math.floor(now.getTime() / 1000 / HOUR_S) * HOUR_S}`

/**
 * Where a cursor resumes, or the 410 telling its holder to read everything again: deletions older
 * than the retention may be forgotten, so a cursor issued before then could miss one.
 */
function resumeAfter(ctx: RestContext, since: string | undefined): string {
  if (since === undefined) return '0'
  const [, seq, issued] = CURSOR.exec(since)!
  if (Number(issued) * 1000 < ctx.now.getTime() - ctx.settings.changesRetentionDays * DAY_MS) {
    throw new RestError(
      'rest_cursor_expired',
      `The cursor is older than the ${ctx.settings.changesRetentionDays} days the change feed keeps: read every item again, then follow a cursor from since=now.`,
      410,
    )
  }
  return seq!
}

/**
 * Each change as this caller may see it: an item that no longer exists, is in the trash, or that the
 * caller may not read (an event that left `publish`, for anonymous callers) is a `delete`.
 */
async function actionsFor(ctx: RestContext, rows: ChangeRow[]): Promise<Map<string, 'upsert' | 'delete'>> {
  const actions = new Map<string, 'upsert' | 'delete'>()
  for (const resource of RESOURCES) {
    const ids = rows.filter((row) => row.type === resource.singular).map((row) => row.item_id)
    if (!ids.length) continue
    const authored = resource.family === 'authored'
    const { docs } = await ctx.req.payload.find({
      collection: resource.collection as CollectionSlug,
      where: { id: { in: ids } },
      select: authored ? { status: true, author: true } : {},
      depth: 0,
      pagination: false,
      overrideAccess: true,
      req: ctx.req,
    })
    for (const doc of docs as { id: number; status?: string; author?: unknown }[]) {
      const readable = !authored || (doc.status !== 'trash' && (doc.status === 'publish' || capabilities.readUnpublished(ctx.actor, doc)))
      if (readable) actions.set(`${resource.singular}:${doc.id}`, 'upsert')
    }
  }
  return actions
}

/** `GET /changes`: what changed since a cursor, in order (docs/api.md §18). */
export async function listChanges(ctx: RestContext, params: ChangesParams): Promise<RestResult> {
  const { payload } = ctx.req
  if (params.since === 'now') return { body: { changes: [], next_cursor: cursorAt(await lastChange(payload), ctx.now), has_more: false } }
  const after = resumeAfter(ctx, params.since)
  const perPage = params.per_page ?? DEFAULT_PER_PAGE
  const rows = await changesAfter(payload, after, perPage + 1)
  const page = rows.slice(0, perPage)
  const actions = await actionsFor(ctx, page)
  return {
    body: {
      changes: page.map((row) => ({
        type: row.type,
        id: row.item_id,
        action: actions.get(`${row.type}:${row.item_id}`) ?? 'delete',
        modified_utc: row.modified_utc,
      })),
      next_cursor: cursorAt(page.at(-1)?.seq ?? after, ctx.now),
      has_more: rows.length > perPage,
    },
  }
}
