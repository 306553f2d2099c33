/**
 * The widget's views as pure functions, data in and HTML out, so a server can render the same
 * markup before the script runs. Everything from the namespace is text here: titles and
 * descriptions come from whichever site `root` names and never become markup.
 */
import { placeEvents } from '../calendar/calendarGrid'
import { escapeHtml } from '../calendar/escapeHtml'
import type { TermJson } from '../calendar/wireTypes'
import type { CalendarEvent, EventPage } from './api'
import {
  dayNumber,
  dayTitle,
  eventRange,
  readerRange,
  shortDate,
  wallTime,
  weekdayName,
} from './format'
import { addressOf, mapLink, plainText, venueOf } from './links'
import type { WidgetMessages } from './messages'
import { VIEWS, type Period, type View } from './period'

export type ViewContext = { messages: WidgetMessages; locale: string }

/** Namespace text (entities, markup) as safe HTML text. */
function text(value: string | undefined | null): string {
  return escapeHtml(plainText(value ?? ''))
}

/** A series' first event carries its rule, a later occurrence its first event's id (docs/api.md §16). */
export function isSeries(event: CalendarEvent): boolean {
  return Boolean(event.recurrence || event.post_parent)
}

function eventButton(
  context: ViewContext,
  event: CalendarEvent,
  day: string | undefined,
  showDay = false,
): string {
  const starts = !event.allDay && (!day || event.startLocal.slice(0, 10) === day)
  const when = [
    showDay ? shortDate(event.startLocal.slice(0, 10), context.locale) : '',
    starts ? wallTime(event.startLocal, context.locale) : '',
  ]
    .filter(Boolean)
    .join(' ')
  const venue = venueOf(event)
  return (
    `<button type="button" part="event" class="event${event.featured ? ' featured' : ''}" data-event="${escapeHtml(String(event.id))}">` +
    (when ? `<span class="time">${escapeHtml(when)}</span> ` : '') +
    `<span class="name">${text(event.title)}</span>` +
    (isSeries(event)
      ? ` <span class="series" part="series" title="${escapeHtml(context.messages.series)}">↻<span class="sr"> ${escapeHtml(context.messages.series)}</span></span>`
      : '') +
    (showDay && venue?.venue ? ` <span class="where">${text(venue.venue)}</span>` : '') +
    `</button>`
  )
}

function eventList(context: ViewContext, placed: { event: CalendarEvent }[], day: string): string {
  if (!placed.length) return ''
  return `<ul class="events">${placed.map(({ event }) => `<li>${eventButton(context, event, day)}</li>`).join('')}</ul>`
}

export function monthView(
  context: ViewContext,
  period: Period,
  month: string,
  events: CalendarEvent[],
  today: string,
): string {
  const byDay = placeEvents(events, period)
  const head = period.weeks[0]!.map(
    (day) =>
      `<th scope="col" abbr="${escapeHtml(weekdayName(day, context.locale, 'long'))}">${escapeHtml(weekdayName(day, context.locale, 'short'))}</th>`,
  )
  const rows = period.weeks.map(
    (week) =>
      `<tr>${week
        .map((day) => {
          const classes = [
            'day',
            day.slice(0, 7) === month.slice(0, 7) ? '' : 'outside',
            day === today ? 'today' : '',
          ]
            .filter(Boolean)
            .join(' ')
          return (
            `<td class="${classes}" part="day"${day === today ? ' aria-current="date"' : ''}>` +
            `<span class="number" aria-hidden="true">${escapeHtml(dayNumber(day, context.locale))}</span>` +
            `<span class="sr">${escapeHtml(dayTitle(day, context.locale))}</span>` +
            eventList(context, byDay.get(day) ?? [], day) +
            `</td>`
          )
        })
        .join('')}</tr>`,
  )
  return `<table class="month" part="grid"><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`
}

/** The week's and the day's view: each day under its heading, its events in order. */
export function daysView(
  context: ViewContext,
  period: Period,
  events: CalendarEvent[],
  today: string,
): string {
  const byDay = placeEvents(events, period)
  const days = period.weeks.flat().map((day) => {
    const placed = byDay.get(day) ?? []
    return (
      `<li class="agenda-day${day === today ? ' today' : ''}" part="day"${day === today ? ' aria-current="date"' : ''}>` +
      `<h3>${escapeHtml(dayTitle(day, context.locale))}</h3>` +
      (eventList(context, placed, day) ||
        `<p class="none">${escapeHtml(context.messages.noEvents)}</p>`) +
      `</li>`
    )
  })
  return `<ol class="agenda" part="list">${days.join('')}</ol>`
}

export function listView(context: ViewContext, page: EventPage, pageNumber: number): string {
  if (!page.events.length) return `<p class="none">${escapeHtml(context.messages.noEvents)}</p>`
  const items = page.events
    .map((event) => `<li>${eventButton(context, event, undefined, true)}</li>`)
    .join('')
  const pager =
    page.totalPages > 1
      ? `<nav class="pager" part="pager" aria-label="${escapeHtml(context.messages.page(pageNumber, page.totalPages))}">` +
        `<button type="button" part="button" data-action="page-previous"${pageNumber <= 1 ? ' disabled' : ''}>${escapeHtml(context.messages.previous)}</button>` +
        `<span>${escapeHtml(context.messages.page(pageNumber, page.totalPages))}</span>` +
        `<button type="button" part="button" data-action="page-next"${pageNumber >= page.totalPages ? ' disabled' : ''}>${escapeHtml(context.messages.next)}</button>` +
        `</nav>`
      : ''
  return `<ul class="list" part="list">${items}</ul>${pager}`
}

export type DetailLinks = { ics: string; google: string; outlook: string }

function row(label: string, value: string): string {
  return `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`
}

/** A link only to the web or a calendar application: a site's `javascript:` website stays text. */
function link(href: string, label: string, attributes = ''): string {
  if (!/^(https?|webcal):\/\//i.test(href)) return label
  return `<a part="link" href="${escapeHtml(href)}"${attributes}>${label}</a>`
}

const OUTSIDE = ' target="_blank" rel="noopener noreferrer"'

/** The panel of one event: when (its zone and the reader's), where, who, cost, website, its series and where to add it. */
export function detailView(
  context: ViewContext,
  event: CalendarEvent,
  links: DetailLinks,
  series?: CalendarEvent[],
): string {
  const { messages, locale } = context
  const venue = venueOf(event)
  const zone = [event.timezone_abbr, event.timezone]
    .filter((name, index, names) => name && names.indexOf(name) === index)
    .join(', ')
  const rows = [
    row(
      messages.eventTime,
      escapeHtml(
        `${eventRange(event.startLocal, event.endLocal, event.allDay, locale)}${event.allDay ? ` (${messages.allDay})` : ''}${zone ? ` (${zone})` : ''}`,
      ),
    ),
    event.allDay
      ? ''
      : row(
          messages.yourTime,
          escapeHtml(readerRange(event.utc_start_date, event.utc_end_date, locale)),
        ),
  ]
  if (venue?.venue) {
    const map = mapLink(venue)
    const address = addressOf(venue)
    rows.push(
      row(
        messages.venue,
        `${text(venue.venue)}${address ? `<br>${text(address)}` : ''}${map ? `<br>${link(map, escapeHtml(messages.map), OUTSIDE)}` : ''}`,
      ),
    )
  }
  const organizers = event.organizer.filter((organizer) => organizer.organizer)
  if (organizers.length) {
    rows.push(
      row(
        messages.organizer,
        organizers
          .map((organizer) =>
            organizer.website
              ? link(organizer.website, text(organizer.organizer), OUTSIDE)
              : text(organizer.organizer),
          )
          .join(', '),
      ),
    )
  }
  if (event.cost) rows.push(row(messages.cost, text(event.cost)))
  if (event.website && event.website !== event.url)
    rows.push(row(messages.website, link(event.website, text(event.website), OUTSIDE)))
  const about = plainText(event.excerpt || event.description)
  const seriesBlock = isSeries(event)
    ? `<h4>${escapeHtml(messages.seriesDates)}</h4>` +
      (series?.length
        ? `<ul class="series-dates">${series.map((other) => `<li>${eventButton(context, other, undefined, true)}</li>`).join('')}</ul>`
        : `<p class="none">${escapeHtml(messages.loading)}</p>`)
    : ''
  return (
    `<section class="detail" part="detail" aria-labelledby="detail-title" tabindex="-1">` +
    `<button type="button" part="button" class="close" data-action="close">${escapeHtml(messages.close)}</button>` +
    `<h3 id="detail-title">${text(event.title)}${isSeries(event) ? ` <span class="series" part="series">↻ ${escapeHtml(messages.series)}</span>` : ''}</h3>` +
    `<dl>${rows.join('')}</dl>` +
    (about ? `<p class="about">${escapeHtml(about)}</p>` : '') +
    seriesBlock +
    `<h4>${escapeHtml(messages.addToCalendar)}</h4>` +
    `<ul class="add" part="add">` +
    `<li>${link(links.ics, escapeHtml(messages.download), ' data-link="ics"')}</li>` +
    `<li>${link(links.google, 'Google Calendar', `${OUTSIDE} data-link="google"`)}</li>` +
    `<li>${link(links.outlook, 'Outlook', `${OUTSIDE} data-link="outlook"`)}</li>` +
    `</ul></section>`
  )
}

export type ShellState = {
  view: View
  language: string
  rtl: boolean
  search: string
  featured: boolean
  subscription: string
}

/** What stays put while the reader moves: the toolbar, the filters and the places the views go. */
export function shellView(context: ViewContext, state: ShellState): string {
  const { messages } = context
  const views = VIEWS.map(
    (view) =>
      `<button type="button" part="button view" data-view="${view}" aria-pressed="${view === state.view}">${escapeHtml(messages.views[view])}</button>`,
  ).join('')
  return (
    `<div class="calendar" part="calendar" lang="${escapeHtml(state.language)}" dir="${state.rtl ? 'rtl' : 'ltr'}" role="region" aria-label="${escapeHtml(messages.calendar)}">` +
    `<div class="bar" part="toolbar">` +
    `<div class="nav"><button type="button" part="button" data-action="previous" aria-label="${escapeHtml(messages.previous)}">‹</button>` +
    `<button type="button" part="button" data-action="today">${escapeHtml(messages.today)}</button>` +
    `<button type="button" part="button" data-action="next" aria-label="${escapeHtml(messages.next)}">›</button></div>` +
    `<h2 class="title" part="title" aria-live="polite"></h2>` +
    `<div class="views">${views}</div>` +
    `</div>` +
    `<form class="filters" part="filters" role="search" aria-label="${escapeHtml(messages.filters)}">` +
    `<label><span>${escapeHtml(messages.search)}</span><input part="input" type="search" name="search" value="${escapeHtml(state.search)}"></label>` +
    `<label class="category" hidden><span>${escapeHtml(messages.category)}</span><select part="input" name="category"></select></label>` +
    `<label class="check"><input type="checkbox" name="featured"${state.featured ? ' checked' : ''}><span>${escapeHtml(messages.featuredOnly)}</span></label>` +
    `<button type="submit" part="button">${escapeHtml(messages.apply)}</button>` +
    `<a part="link" class="subscribe" data-link="subscribe" href="${escapeHtml(state.subscription)}">${escapeHtml(messages.subscribe)}</a>` +
    `</form>` +
    `<p class="status" role="status"></p>` +
    `<div class="body" part="body"></div>` +
    `<div class="panel"></div>` +
    `</div>`
  )
}

export function categoryOptions(context: ViewContext, terms: TermJson[], chosen: string): string {
  return (
    `<option value="">${escapeHtml(context.messages.allCategories)}</option>` +
    terms
      .map(
        (term) =>
          `<option value="${escapeHtml(term.slug)}"${term.slug === chosen ? ' selected' : ''}>${text(term.name)}</option>`,
      )
      .join('')
  )
}
