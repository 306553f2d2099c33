import type { Actor } from '../calendar/access/roles'
import type { ReadScope } from '../database/readScope'
import type { SiteSettings } from '../globals/siteSettings'
import type { CalendarRuntime } from '../options'

/**
 * Whom an operation reads for and at what: the caller (its user, whether signed in), the language,
 * the revision, the clock, the site's settings and the developers' fields. Every door has these of
 * its own request; the namespace's context is one.
 */
export type Reader = ReadScope & {
  actor: Actor
  signedIn: boolean
  now: Date
  settings: SiteSettings
  calendar: Pick<CalendarRuntime, 'customFields'>
}
