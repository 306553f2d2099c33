/**
 * The source of a run, whichever door started it (the jobs queue, the CLI, a subscription): a CSV
 * file, another calendar site's REST API, or an iCalendar file or feed (docs/api.md §23).
 */
import type { Payload } from 'payload'
import type { CsvKind } from '../calendar/csvColumns'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import { authorizationHeader, fetchOk } from './fetchSource'
import type { ImportSource } from './items'
import { csvSource } from './sources/csv'
import { ICAL_FILE_SOURCE, icalSource } from './sources/ical'
import { siteSource } from './sources/site'

export const SOURCE_FORMATS = ['csv', 'site', 'ical'] as const
export type SourceFormat = (typeof SOURCE_FORMATS)[number]

export type SourceSpec = {
  format: SourceFormat
  /** A file's text (CSV, iCalendar). */
  text?: string
  /** A site's namespace root, or an iCalendar feed's URL (`webcal://` read over https). */
  url?: string
  credentials?: string
  kind?: CsvKind
  /** A site's trashed items too (docs/api.md §23.5). */
  trash?: boolean
}

/** The languages of this service besides the default: a site's items are read in each of them. */
export function otherLanguages(payload: Payload): string[] {
  const localization = payload.config.localization
  return localization ? localization.localeCodes.filter((code) => code !== DEFAULT_LANGUAGE) : []
}

/** `webcal://` is how calendar links say "subscribe": the feed itself is over https. */
export function feedUrl(url: string): string {
  return url.trim().replace(/^webcals?:\/\//i, 'https://')
}

export async function openSource(payload: Payload, spec: SourceSpec): Promise<ImportSource> {
  switch (spec.format) {
    case 'csv':
      if (spec.text === undefined) throw new Error('A CSV import needs a file.')
      return csvSource(spec.text, spec.kind)
    case 'site':
      if (!spec.url)
        throw new Error('A site import needs the URL of its REST API (the namespace root).')
      return siteSource(spec.url, {
        credentials: spec.credentials,
        languages: otherLanguages(payload),
        trash: spec.trash,
      })
    case 'ical': {
      if (spec.text !== undefined) return icalSource(spec.text, ICAL_FILE_SOURCE)
      if (!spec.url) throw new Error('An iCalendar import needs a file or a URL.')
      const url = feedUrl(spec.url)
      const authorization = spec.credentials ? authorizationHeader(spec.credentials) : undefined
      const answer = await fetchOk(url, { authorization, accept: 'text/calendar, */*;q=0.5' })
      return icalSource(answer.body, url)
    }
  }
}
