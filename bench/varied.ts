import type autocannon from 'autocannon'

/** What the benchmarks ask that no single cached answer serves (`npm run bench` (h), `npm run bench:profile -- varied`). */

/** A day `days` (and `months`) from today, as `YYYY-MM-DD` in UTC. */
export function dayOffset(days: number, months = 0): string {
  const now = new Date()
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, now.getUTCDate() + days),
  )
    .toISOString()
    .slice(0, 10)
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!

/**
 * (h): a list as readers ask for it, different nearly every time: maybe a category (of 20) and a tag
 * (of 50), maybe a month's window within the dataset's three years, a page among those the filters
 * leave (a page past the last is a 404), in English, French, Arabic or German, by parameter or
 * language root.
 */
export function variedList(): string {
  const query = new URLSearchParams()
  let filters = 0
  for (const [name, of, chance] of [
    ['categories', 20, 0.5],
    ['tags', 50, 0.3],
  ] as const) {
    if (Math.random() >= chance) continue
    query.set(name, String(1 + Math.floor(Math.random() * of)))
    filters++
  }
  if (Math.random() < 0.6) {
    const month = Math.floor(Math.random() * 36) - 18
    query.set('start_date', dayOffset(0, month))
    query.set('end_date', dayOffset(0, month + 1))
    filters++
  }
  query.set('page', String(1 + Math.floor(Math.random() * Math.max(1, 5 >> filters))))
  const language = pick(['en', 'en', 'fr', 'ar', 'de'])
  if (language === 'en') return `/api/cal/events/v1/events?${query}`
  if (Math.random() < 0.5) return `/${language}/api/cal/events/v1/events?${query}`
  query.set('i18n_language', language)
  return `/api/cal/events/v1/events?${query}`
}

/** autocannon's requests with a path drawn afresh each time one is sent (it reuses a request object per connection). */
export function pathsDrawnBy(
  next: () => string,
): { setupRequest: (request: autocannon.Request) => autocannon.Request }[] {
  return [{ setupRequest: (request) => ({ ...request, path: next() }) }]
}

type Named = { id: number; venue?: string; organizer?: string; name?: string }
type ListEvent = {
  id: number
  title?: string
  description?: string
  start_date?: string
  end_date?: string
  utc_start_date?: string
  utc_end_date?: string
  venue?: Named | unknown[]
  organizer?: Named[]
  categories?: Named[]
  tags?: Named[]
}
type ListAnswer = { events?: ListEvent[]; total?: number; total_pages?: number }

/** An event as both answers must give it: its texts, dates, venue, organizers and terms by id and name. */
const eventSummary = ({ venue, organizer, categories, tags, ...event }: ListEvent) => {
  const named = (items: Named[] = []) =>
    items.map(({ id, venue: v, organizer: o, name }) => [id, v ?? o ?? name])
  const dates = [event.start_date, event.end_date, event.utc_start_date, event.utc_end_date]
  const place = venue && !Array.isArray(venue) ? named([venue]) : []
  return [
    event.id,
    event.title,
    event.description,
    dates,
    place,
    ...[organizer, categories, tags].map(named),
  ]
}

/** What two answers of a list must share: status, each event as `eventSummary` gives it, in order, the total and the pages. */
async function listSummary(response: Response): Promise<string> {
  const text = await response.text()
  let body: ListAnswer
  try {
    body = JSON.parse(text) as ListAnswer
  } catch {
    return `${response.status} ${text.slice(0, 200)}`
  }
  return `${response.status} ${JSON.stringify([body.events?.map(eventSummary), body.total, body.total_pages])}`
}

/**
 * Throws unless the namespace at `app` and the floor at `floor` answer each of `paths` alike (with
 * `headers`): the same status, and for a page the same events in the same order (texts, dates,
 * venue, organizers and terms by id and name), the same total and the same number of pages. With `served`, the namespace must also answer each with
 * events (an answer both refuse alike is no evidence). A floor is a floor for a scenario only if it
 * does the same work.
 */
export async function sameAnswers(
  app: string,
  floor: string,
  paths: string[],
  { headers, served = false }: { headers?: Record<string, string>; served?: boolean } = {},
): Promise<void> {
  const differences: string[] = []
  for (const path of paths) {
    const [ours = '', theirs = ''] = await Promise.all(
      [app, floor].map(async (base) => listSummary(await fetch(`${base}${path}`, { headers }))),
    )
    if (ours !== theirs) differences.push(`${path}: namespace ${ours}, floor ${theirs}`)
    else if (served && !ours.startsWith('200 [[['))
      differences.push(`${path}: the namespace served no events (${ours.slice(0, 200)})`)
  }
  if (differences.length)
    throw new Error(`The floor does not answer as the namespace does:\n${differences.join('\n')}`)
}
