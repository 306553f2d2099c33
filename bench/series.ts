import { adminToken } from './app'
import { dayOffset } from './varied'

/** One timed write of the scenario: seconds, and the statements that wrote content, when the scenario counts them. */
export type TimedWrite = { seconds: number; statements?: number }

/** A daily series of 730 occurrences created, retitled through its first event, then moved an hour later (docs/api.md §16). */
export type SeriesWrites = { create: TimedWrite; retitle: TimedWrite; move: TimedWrite }

export async function seriesWrites(
  base: string,
  statements?: () => Promise<number>,
): Promise<SeriesWrites> {
  const headers = {
    'Content-Type': 'application/json',
    Authorization: `JWT ${await adminToken(base)}`,
  }
  const timed = async (method: string, path: string, body: unknown) => {
    const before = await statements?.()
    const started = performance.now()
    const response = await fetch(`${base}/api/cal/events/v1${path}`, {
      method,
      headers,
      body: JSON.stringify(body),
    })
    const answer = (await response.json()) as { id: number }
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`)
    const seconds = Math.round(performance.now() - started) / 1000
    const after = await statements?.()
    return {
      write: {
        seconds,
        statements: before === undefined || after === undefined ? undefined : after - before,
      },
      answer,
    }
  }
  const day = dayOffset(1)
  const created = await timed('POST', '/events', {
    title: 'Daily bench series',
    status: 'publish',
    start_date: `${day} 09:00:00`,
    end_date: `${day} 10:00:00`,
    timezone: 'Europe/Paris',
    recurrence: 'RRULE:FREQ=DAILY;COUNT=730',
  })
  const parent = `/events/${created.answer.id}`
  const retitled = await timed('POST', parent, { title: 'Daily bench series, retitled' })
  const moved = await timed('POST', parent, {
    start_date: `${day} 10:00:00`,
    end_date: `${day} 11:00:00`,
  })
  return { create: created.write, retitle: retitled.write, move: moved.write }
}
