import type pg from 'pg'
import { percentile } from './percentile'

/**
 * The first list after another connection's write: how soon it showed (median, latest) and what it
 * cost to make (ms), and how many reads after the commits still had the list from before (of all five
 * writes).
 */
export type AfterWrite = { heardMs: number; latestMs: number; madeMs: number; staleReads: number }

/**
 * A write made on a connection of the bench's own, as another instance makes one: how long after its
 * commit the list's first answer that shows it (a new ETag) was asked for, which is how soon the app
 * heard of it (docs/api.md §14.3: a notification), and how long that answer took to make, the cached
 * totals and term counts redone. Medians of five, in ms.
 */
export async function listAfterWrite(
  url: string,
  db: pg.Client,
  eventId: number,
): Promise<AfterWrite> {
  const heard: number[] = []
  const made: number[] = []
  let staleReads = 0
  const read = async () => {
    const response = await fetch(url)
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url} answered ${response.status} after a write`)
    return response.headers.get('ETag')
  }
  for (let i = 0; i < 5; i++) {
    const before = await read()
    await db.query('update events set featured = not featured where id = $1', [eventId])
    const committed = performance.now()
    for (;;) {
      const asked = performance.now()
      if ((await read()) !== before) {
        heard.push(asked - committed)
        made.push(performance.now() - asked)
        break
      }
      staleReads++
      if (asked - committed > 10_000) throw new Error(`${url} did not show a write 10 s after it`)
    }
  }
  return {
    heardMs: percentile(heard, 0.5),
    latestMs: percentile(heard, 1),
    madeMs: percentile(made, 0.5),
    staleReads,
  }
}
