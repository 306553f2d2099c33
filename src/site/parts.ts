import type { LanguageCode } from '../i18n/languages'
import { pageMessagesOf } from '../i18n/messages'
import { formatWhen, utcInstant, whenOf } from './dates'
import { html, type Html } from './html'
import type { EventJson } from '../calendar/wireTypes'

/** One event in a list: its title as a link to its page, when, and where. */
export function eventItem(language: LanguageCode, event: EventJson): Html {
  const venue = Array.isArray(event.venue) ? undefined : event.venue.venue
  return html`<li class="event">
    <h3><a href="${event.url}">${event.title}</a></h3>
    <p><time datetime="${utcInstant(event.utc_start_date)}">${formatWhen(language, whenOf(event))}</time>${venue ? html`<br />${venue}` : ''}</p>
  </li>`
}

export function eventList(language: LanguageCode, events: EventJson[], empty: string): Html {
  return events.length
    ? html`<ol class="events">
        ${events.map((event) => eventItem(language, event))}
      </ol>`
    : html`<p>${empty}</p>`
}

/** Previous and next pages of a list, as links to this page's path with `page` set. */
export function pager(
  language: LanguageCode,
  path: string,
  query: URLSearchParams,
  page: number,
  pages: number,
): Html {
  if (pages <= 1) return html``
  const words = pageMessagesOf(language)
  const at = (number: number) => {
    const next = new URLSearchParams(query)
    if (number === 1) next.delete('page')
    else next.set('page', String(number))
    const search = next.toString()
    return search ? `${path}?${search}` : path
  }
  return html`<nav class="pager" aria-label="${words.pages}">
    ${page > 1 ? html`<a rel="prev" href="${at(page - 1)}">${words.previousPage}</a>` : ''}
    <span>${words.page(page, pages)}</span>
    ${page < pages ? html`<a rel="next" href="${at(page + 1)}">${words.nextPage}</a>` : ''}
  </nav>`
}

/** `?page=`: a positive integer, 1 when absent; undefined when it is anything else. */
export function pageNumber(query: URLSearchParams): number | undefined {
  const given = query.get('page')
  if (given === null) return 1
  return /^[1-9]\d{0,5}$/.test(given) ? Number(given) : undefined
}
