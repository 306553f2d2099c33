import type { PayloadRequest } from 'payload'
import type { SiteSettings } from '../globals/siteSettings'
import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages'
import type { Writer } from '../operations/writer'
import { calendarRuntime } from '../options'

/**
 * An import's writer for one item's request: the system's authority (a run is started by an
 * administrator, the operator or a subscription), with the capabilities of an administrator, and
 * the run's user as the author of what it creates. An import writes the default language, then each
 * language the source translates.
 */
export function importWriter(
  req: PayloadRequest,
  settings: SiteSettings,
  root: string,
  language: LanguageCode = DEFAULT_LANGUAGE,
): Writer {
  return {
    req,
    language,
    revision: undefined,
    actor: { id: req.user?.id ?? 0, role: 'administrator' },
    signedIn: true,
    now: new Date(),
    settings,
    calendar: calendarRuntime(req.payload.config),
    root,
    system: true,
  }
}
