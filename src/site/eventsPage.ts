import { pageMessagesOf, type PageMessages } from '../i18n/messages'
import { languageTag } from '../i18n/languages'
import { formatTime, monthName, utcInstant, weekdayNames } from './dates'
import { badRequest, htmlResponse, notFound, pageDocument } from './document'
import { html, type Html } from './html'
import { eventList, pageNumber, pager } from './parts'
import type { Site } from './site'
import {
  addDays,
  addMonths,
  listWindow,
  periodBounds,
  placeEvents,
  readDay,
} from '../calendar/calendarGrid'
import type { EventJson, ListJson } from '../calendar/wireTypes'

/** The namespace's largest page (docs/api.md §4.1), and how many a month may take: 1,000 events. */
const PER_PAGE = 50
const MONTH_PAGES = 20
const WIDGET = '/calendar/widget.js'

/** `YYYY-MM` of the month `month` months after January of `year` (both may run over). */
function monthOf(year: number, month: number): string {
  return addMonths(`${year}-01-01`, month - 1).slice(0, 7)
}

/** Every day of a month, `YYYY-MM-DD`. */
function daysOf(month: string): string[] {
  const days: string[] = []
  for (let day = `${month}-01`; day.startsWith(month); day = addDays(day, 1)) days.push(day)
  return days
}

/**
 * A month's events, every page of them: each that touches one of its days on its own clock, those
 * that began before it or end after it included, read as the widget reads a period (`periodBounds`).
 */
async function monthEvents(site: Site, days: string[]): Promise<EventJson[] | undefined> {
  const { endsAfter, startsBefore } = periodBounds(days[0]!, days[days.length - 1]!)
  const window = { ends_after: endsAfter, starts_before: startsBefore, per_page: PER_PAGE }
  const events: EventJson[] = []
  for (let page = 1; page <= MONTH_PAGES; page++) {
    const answer = await site.ns.get<ListJson<'events', EventJson>>('/events', { ...window, page })
    if (answer.status !== 200) return undefined
    events.push(...answer.body.events)
    if (page >= answer.body.total_pages) break
  }
  return events
}

/** Each day of the month with the events it holds: every day an event covers on its own clock. */
function monthDays(days: string[], events: EventJson[]) {
  return placeEvents(
    events.map((event) => ({
      event,
      startLocal: event.start_date,
      endLocal: event.end_date,
      allDay: event.all_day,
    })),
    { first: days[0]!, last: days[days.length - 1]!, weeks: [days] },
  )
}

/** The month as a table of weeks, Monday first, each event on every day it covers, its time on the day it starts. */
function monthTable(
  site: Site,
  month: string,
  days: string[],
  byDay: ReturnType<typeof monthDays>,
): Html {
  const lead = (new Date(`${days[0]}T00:00:00Z`).getUTCDay() + 6) % 7
  const cells: (string | undefined)[] = [...Array.from({ length: lead }, () => undefined), ...days]
  while (cells.length % 7) cells.push(undefined)
  const weeks = Array.from({ length: cells.length / 7 }, (_, week) =>
    cells.slice(week * 7, week * 7 + 7),
  )
  const names = weekdayNames(site.language)
  const cell = (day: string | undefined) => {
    if (day === undefined) return html`<td class="outside"></td>`
    const listed = byDay.get(day) ?? []
    return html`<td${listed.length ? '' : html` class="empty"`}><span class="day">${Number(day.slice(8))}</span>${
      listed.length
        ? html`<ul>
            ${listed.map(
              ({ event: { event }, continued }) =>
                html`<li>
                  <a href="${event.url}"
                    >${event.all_day || continued ? '' : html`<time datetime="${utcInstant(event.utc_start_date)}">${formatTime(site.language, event.start_date)}</time> `}${event.title}</a
                  >
                </li>`,
            )}
          </ul>`
        : ''
    }</td>`
  }
  return html`<table class="month">
    <caption>
      ${monthName(site.language, month)}
    </caption>
    <thead>
      <tr>
        ${names.map((name) => html`<th scope="col"><abbr title="${name.long}">${name.short}</abbr></th>`)}
      </tr>
    </thead>
    <tbody>
      ${weeks.map(
        (week) =>
          html`<tr>
            ${week.map(cell)}
          </tr>`,
      )}
    </tbody>
  </table>`
}

function views(words: PageMessages, path: string, current: 'month' | 'list'): Html {
  const link = (view: 'month' | 'list', label: string) =>
    html`<a href="${`${path}?view=${view}`}" ${view === current ? html` aria-current="page"` : ''}>${label}</a>`
  return html`<nav class="views" aria-label="${words.views}">${link('month', words.month)} ${link('list', words.list)}</nav>`
}

/**
 * `/events/`: the month (`?month=YYYY-MM`, this month on the server's UTC clock by default) or the list
 * (`?view=list&page=N`: the widget's list, from the server's UTC day, each series once), rendered here for readers
 * and search engines without JavaScript, and handed to the `<cal-events>` widget, which replaces it
 * when its script runs.
 */
export async function eventsPage(
  site: Site,
  visit: URL,
  root: string,
  now: Date = new Date(),
): Promise<Response> {
  const query = visit.searchParams
  const words = pageMessagesOf(site.language)
  const view = query.get('view') ?? 'month'
  if (view !== 'month' && view !== 'list') return badRequest(site.language, words.badView)
  let content: Html
  let widget: Record<string, string>
  // What names this page's content: the month or the page asked for, in the form the links give.
  const named = new URLSearchParams()
  if (view === 'month') {
    const month = query.get('month') ?? monthOf(now.getUTCFullYear(), now.getUTCMonth() + 1)
    // The months of the calendar's grids: years 1000 to 9999 (`readDay`).
    if (!/^\d{4}-\d{2}$/.test(month) || !readDay(`${month}-01`))
      return badRequest(site.language, words.badMonth)
    const days = daysOf(month)
    const events = await monthEvents(site, days)
    if (!events) return notFound(site.language)
    const byDay = monthDays(days, events)
    const [year, number] = month.split('-').map(Number) as [number, number]
    // No link past the first or the last month there is.
    const link = (other: string, label: string, rel: string) =>
      readDay(`${other}-01`)
        ? html`<a rel="${rel}" href="${`${visit.pathname}?view=month&month=${other}`}">${label}</a>`
        : ''
    content = html`<nav class="pager" aria-label="${words.months}">
        ${link(monthOf(year, number - 1), words.previousMonth, 'prev')} ${link(monthOf(year, number + 1), words.nextMonth, 'next')}
      </nav>
      ${[...byDay.values()].some((placed) => placed.length) ? '' : html`<p>${words.noEventsThisMonth}</p>`} ${monthTable(site, month, days, byDay)}`
    // The widget's own name for the day its first view shows (docs/public-face.md): it read no `month`,
    // and showed the reader's month in place of the one asked for.
    widget = { date: `${month}-01` }
    if (query.has('month')) {
      named.set('view', 'month')
      named.set('month', month)
    }
  } else {
    const page = pageNumber(query)
    if (page === undefined) return badRequest(site.language, words.badPage)
    // The widget's list, from the server's day; the widget reads from the reader's own day (the same,
    // but near midnight far from UTC), so page N here is page N there.
    const today = now.toISOString().slice(0, 10)
    const answer = await site.ns.get<ListJson<'events', EventJson>>('/events', {
      ...listWindow(today),
      page,
    })
    if (answer.status !== 200) return notFound(site.language)
    content = html`${eventList(site.language, answer.body.events, words.noUpcomingEvents)}
    ${pager(site.language, visit.pathname, query, page, answer.body.total_pages)}`
    widget = { page: String(page) }
    named.set('view', 'list')
    if (page > 1) named.set('page', String(page))
  }
  const attributes = Object.entries({
    view,
    root,
    lang: languageTag(site.language),
    ...widget,
  }).map(([name, value]) => html` ${name}="${value}"`)
  const body = html`<h1>${words.events}</h1>
${views(words, visit.pathname, view)}
<cal-events${attributes}>
${content}
</cal-events>
<script type="module" src="${WIDGET}"></script>`
  const document = pageDocument(
    {
      language: site.language,
      title: words.events,
      // `/events` and `/events/` are one page.
      canonical: `${site.origin}${visit.pathname.replace(/\/?$/, '/')}${named.size ? `?${named}` : ''}`,
    },
    body,
  )
  return htmlResponse(document, 200, 'public, max-age=0, must-revalidate')
}
