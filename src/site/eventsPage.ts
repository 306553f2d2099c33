import { pageMessagesOf, type PageMessages } from '../i18n/messages'
import { formatTime, monthName, utcInstant, weekdayNames } from './dates'
import { badRequest, htmlResponse, notFound, pageDocument } from './document'
import { html, type Html } from './html'
import { eventList, pageNumber, pager } from './parts'
import type { Site } from './site'
import type { EventJson, ListJson } from '../calendar/wireTypes'

/** The namespace's largest page (docs/api.md §4.1), and how many a month may take: 1,000 events. */
const PER_PAGE = 50
const MONTH_PAGES = 20
const WIDGET = '/calendar/widget.js'

const pad = (n: number) => String(n).padStart(2, '0')

/** `YYYY-MM` of a date's UTC clock, and of the month `offset` months from it. */
function monthOf(year: number, month: number): string {
  const date = new Date(Date.UTC(year, month - 1, 1))
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`
}

/** A month's events, every page of them, within the window of its days on the site's clock (docs/api.md §4.2). */
async function monthEvents(site: Site, month: string): Promise<EventJson[] | undefined> {
  const [year, number] = month.split('-').map(Number) as [number, number]
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate()
  const window = {
    start_date: `${month}-01`,
    end_date: `${month}-${pad(last)}`,
    per_page: PER_PAGE,
  }
  const events: EventJson[] = []
  for (let page = 1; page <= MONTH_PAGES; page++) {
    const answer = await site.ns.get<ListJson<'events', EventJson>>('/events', { ...window, page })
    if (answer.status !== 200) return undefined
    events.push(...answer.body.events)
    if (page >= answer.body.total_pages) break
  }
  return events
}

/** The month as a table of weeks, Monday first, each event on the day it starts. */
function monthTable(site: Site, month: string, events: EventJson[]): Html {
  const [year, number] = month.split('-').map(Number) as [number, number]
  const days = new Date(Date.UTC(year, number, 0)).getUTCDate()
  const lead = (new Date(Date.UTC(year, number - 1, 1)).getUTCDay() + 6) % 7
  const byDay = new Map<number, EventJson[]>()
  for (const event of events) {
    if (event.start_date.slice(0, 7) !== month) continue
    const day = Number(event.start_date.slice(8, 10))
    byDay.set(day, [...(byDay.get(day) ?? []), event])
  }
  const cells: (number | undefined)[] = [
    ...Array.from({ length: lead }, () => undefined),
    ...Array.from({ length: days }, (_, i) => i + 1),
  ]
  while (cells.length % 7) cells.push(undefined)
  const weeks = Array.from({ length: cells.length / 7 }, (_, week) =>
    cells.slice(week * 7, week * 7 + 7),
  )
  const names = weekdayNames(site.language)
  const cell = (day: number | undefined) => {
    if (day === undefined) return html`<td class="outside"></td>`
    const listed = byDay.get(day) ?? []
    return html`<td${listed.length ? '' : html` class="empty"`}><span class="day">${day}</span>${
      listed.length
        ? html`<ul>
            ${listed.map(
              (event) =>
                html`<li>
                  <a href="${event.url}"
                    >${event.all_day ? '' : html`<time datetime="${utcInstant(event.utc_start_date)}">${formatTime(site.language, event.start_date)}</time> `}${event.title}</a
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
 * (`?view=list&page=N`: the namespace's default window, from yesterday on), rendered here for readers
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
  if (view === 'month') {
    const month = query.get('month') ?? monthOf(now.getUTCFullYear(), now.getUTCMonth() + 1)
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return badRequest(site.language, words.badMonth)
    const events = await monthEvents(site, month)
    if (!events) return notFound(site.language)
    const [year, number] = month.split('-').map(Number) as [number, number]
    const link = (other: string, label: string, rel: string) =>
      html`<a rel="${rel}" href="${`${visit.pathname}?view=month&month=${other}`}">${label}</a>`
    content = html`<nav class="pager" aria-label="${words.months}">
        ${link(monthOf(year, number - 1), words.previousMonth, 'prev')} ${link(monthOf(year, number + 1), words.nextMonth, 'next')}
      </nav>
      ${events.length ? '' : html`<p>${words.noEventsThisMonth}</p>`} ${monthTable(site, month, events)}`
    widget = { month }
  } else {
    const page = pageNumber(query)
    if (page === undefined) return badRequest(site.language, words.badPage)
    const answer = await site.ns.get<ListJson<'events', EventJson>>('/events', { page })
    if (answer.status !== 200) return notFound(site.language)
    content = html`${eventList(site.language, answer.body.events, words.noUpcomingEvents)}
    ${pager(site.language, visit.pathname, query, page, answer.body.total_pages)}`
    widget = { page: String(page) }
  }
  const attributes = Object.entries({ view, root, lang: site.language, ...widget }).map(
    ([name, value]) => html` ${name}="${value}"`,
  )
  const body = html`<h1>${words.events}</h1>
${views(words, visit.pathname, view)}
<cal-events${attributes}>
${content}
</cal-events>
<script type="module" src="${WIDGET}"></script>`
  const document = pageDocument(
    { language: site.language, title: words.events, canonical: `${visit.origin}${visit.pathname}` },
    body,
  )
  return htmlResponse(document, 200, 'public, max-age=0, must-revalidate')
}
