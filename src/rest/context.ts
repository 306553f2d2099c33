import type { PayloadRequest } from 'payload'
import type { Actor } from '../calendar/access/roles'
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from '../i18n/languages'
import { siteSettings, type SiteSettings } from '../globals/siteSettings'
import { calendarRuntime, type CalendarRuntime } from '../options'
import { readRevision } from '../database/revision'
import { revisionCacheOf } from '../calendar/caches'
import { permalinkBase } from '../calendar/permalinks'
import { publicOrigin } from '../collections/clientAddress'

/** Everything a handler needs to know about the request, computed once by the pipeline. */
export type RestContext = {
  req: PayloadRequest
  actor: Actor
  signedIn: boolean
  language: LanguageCode
  /** The language asked for with `i18n_language`, which the list URLs handed out must keep. */
  requestedLanguage: LanguageCode | undefined
  /** The site's public address, as absolute URLs in answers start (docs/api.md §1): `https://host`. */
  origin: string
  /** Absolute URL of the namespace root, on the request's language root: `https://host/fr/api/cal/events/v1`. */
  root: string
  /** Base of permalinks, with the language when it is not the default one. */
  permalinkBase: string
  settings: SiteSettings
  /** The plugin's options that shape answers: namespace, permalinks, developers' fields. */
  calendar: CalendarRuntime
  now: Date
  /**
   * The content's revision when this request reads (`database/revision`): values derived from the
   * content are cached under it. Writes leave it unset, so what they answer is computed afresh.
   */
  revision: string | undefined
  /**
   * Values the query or body gave for names the path also carries (`slug` on `/events/by-slug/{slug}`):
   * the path's value names the item, these are new values for it. Not validated by the route's schema.
   */
  shadowedByPath: Record<string, unknown>
}

/** `/fr/api/cal/events/v1/...` → `fr`: the per-language REST roots of docs/api.md §1. */
export function languageRootOf(pathname: string): LanguageCode | undefined {
  const first = pathname.split('/')[1]
  return isLanguageCode(first) ? first : undefined
}

/** The REST root the namespace is served under, on the request's language root: `https://host/fr/api/`. */
export function apiRootOf(ctx: RestContext): string {
  return ctx.root.slice(0, -ctx.calendar.namespace.length)
}

/** The site's name: the `siteName` setting, else the host of the site URL. */
export function siteNameOf(ctx: RestContext): string {
  return ctx.settings.siteName || new URL(ctx.permalinkBase).host
}

export async function createContext(
  req: PayloadRequest,
  language: LanguageCode | undefined,
  shadowedByPath: Record<string, unknown> = {},
): Promise<RestContext> {
  const url = new URL(req.url ?? 'http://localhost/')
  const origin = publicOrigin(req.payload.config.serverURL, req.headers, url)
  const languageRoot = languageRootOf(url.pathname)
  const calendar = calendarRuntime(req.payload.config)
  const reading = req.method === 'GET' || req.method === 'HEAD'
  const revision = reading ? await readRevision(req.payload) : undefined
  const settings = await revisionCacheOf(req.payload, 'revision').get(revision, 'settings', () =>
    siteSettings(req, calendar.settingsGlobal),
  )
  const effective = language ?? languageRoot ?? DEFAULT_LANGUAGE
  return {
    req,
    actor: req.user as Actor,
    signedIn: Boolean(req.user),
    language: effective,
    requestedLanguage: language,
    origin,
    root: `${origin}${languageRoot ? `/${languageRoot}` : ''}${req.payload.config.routes.api}/${calendar.namespace}`,
    permalinkBase: permalinkBase(settings.siteUrl, origin, effective),
    settings,
    calendar,
    now: new Date(),
    revision,
    shadowedByPath,
  }
}
