import { changeActions, changesHeard } from '../../collections/changeActions'
import { changesAfter, lastChange, pastTheEnd } from '../../database/changeLog'
import type { RestContext } from '../context'
import { RestError } from '../../server/errors'
import type { RestResult } from '../route'
import { CURSOR, type ChangesParams } from '../schemas/changes'

const DEFAULT_PER_PAGE = 100
const DAY_MS = 86_400_000

const HOUR_S = 3600

/**
 * A cursor names the last change read and when it was issued, to the hour: an answer stays the same
 * (its ETag too) for an hour, and a cursor expires at most an hour early.
 */
const cursorAt = (seq: string, now: Date) =>
  `${seq}.${Math.floor(now.getTime() / 1000 / HOUR_S) * HOUR_S}`

const START_OVER = 'read every item again, then follow a cursor from since=now.'

/**
 * Where a cursor resumes, or the 410 telling its holder to read everything again: deletions older
 * than the retention may be forgotten, so a cursor issued before then could miss one; and a cursor
 * no answer handed out (past the log's end, or issued later than now) would be answered with nothing
 * for ever, its holder never told.
 */
async function resumeAfter(ctx: RestContext, since: string | undefined): Promise<string> {
  if (since === undefined) return '0'
  const [, seq, issued] = CURSOR.exec(since)!
  const issuedMs = Number(issued) * 1000
  if (issuedMs < ctx.now.getTime() - ctx.settings.changesRetentionDays * DAY_MS) {
    throw new RestError(
      'rest_cursor_expired',
      `The cursor is older than the ${ctx.settings.changesRetentionDays} days the change feed keeps: ${START_OVER}`,
      410,
    )
  }
  // An hour's leeway: another instance's clock may be ahead of this one's.
  if (issuedMs > ctx.now.getTime() + HOUR_S * 1000 || (await pastTheEnd(ctx.req.payload, seq!))) {
    throw new RestError(
      'rest_cursor_expired',
      `The change feed never handed out this cursor: ${START_OVER}`,
      410,
    )
  }
  return seq!
}

/** `GET /changes`: what changed since a cursor, in order (docs/api.md §18). */
export async function listChanges(ctx: RestContext, params: ChangesParams): Promise<RestResult> {
  const { payload } = ctx.req
  if (params.since === 'now')
    return {
      body: {
        changes: [],
        next_cursor: cursorAt(await lastChange(payload), ctx.now),
        has_more: false,
      },
    }
  const after = await resumeAfter(ctx, params.since)
  const perPage = params.per_page ?? DEFAULT_PER_PAGE
  const rows = await changesAfter(payload, after, perPage + 1)
  const page = rows.slice(0, perPage)
  const actionOf = await changeActions(ctx.req, ctx.actor, page)
  const heard = await changesHeard(ctx.req, ctx.actor, page, actionOf)
  return {
    body: {
      // The cursor passes the changes left out too: the next page starts after them.
      changes: heard.map((row) => ({
        type: row.type,
        id: row.item_id,
        action: actionOf(row),
        modified_utc: row.modified_utc,
      })),
      next_cursor: cursorAt(page.at(-1)?.seq ?? after, ctx.now),
      has_more: rows.length > perPage,
    },
  }
}
