import { DEFAULT_LANGUAGE } from '../i18n/languages'

/**
 * Where the site's pages live (docs/api.md §3): the `siteUrl` setting, else the server's URL, then
 * the language's folder for every language but the default.
 */
export function permalinkBase(siteUrl: string, serverUrl: string, language: string): string {
  const site = (siteUrl || serverUrl).replace(/\/+$/, '')
  return language === DEFAULT_LANGUAGE ? site : `${site}/${language}`
}

/** A permalink pattern (`/event/{slug}/`) filled with a slug, or a path of slugs (`music/jazz`). */
export function permalinkUrl(
  base: string,
  pattern: string,
  slug: string | null | undefined | string[],
): string {
  const segments = Array.isArray(slug) ? slug : [slug ?? '']
  return base + pattern.replace('{slug}', segments.map(encodeURIComponent).join('/'))
}
