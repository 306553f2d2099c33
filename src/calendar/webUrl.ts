/**
 * What a website (of an event, venue or organizer) or an image address may be: an absolute http(s) URL
 * with a host. Every door that writes one (the namespace's schemas, the collections' `validate`, the
 * imports) and every door that serves one asks this module, so a `javascript:` or `message:` link can
 * neither be stored nor, stored before the rule, reach a reader (docs/api.md §6.6).
 */

/** Written out in full (`http://` or `https://`): `http:example.com` and `https:/x` are not URLs, as upstream's PHP URL filter has it. */
const WEB_SCHEME = /^https?:\/\//i

/** Tabs and line breaks, which the URL parser drops silently: stored as typed, they would hide a scheme. */
const TAB_OR_NEWLINE = /[\t\n\r]/g

/**
 * The value as a web URL, trimmed, or null when it is none (another scheme, no scheme, no host,
 * unparseable). Scheme-less text such as `example.com` is not one: the namespace refuses it as upstream
 * does, and an import leaves it out rather than guess.
 */
export function webUrl(value: string): string | null {
  const text = value.trim().replace(TAB_OR_NEWLINE, '')
  if (!WEB_SCHEME.test(text)) return null
  const url = URL.parse(text)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null
  return text
}

/** A stored value as it may be served: a web URL, or empty for anything else (absent, or stored before the rule). */
export function servedWebUrl(value: string | null | undefined): string {
  return (value && webUrl(value)) || ''
}

export const WEB_URL_RULE = 'Must be an http(s) URL (https://example.org/…) or empty.'

/** A collection's `validate` for a URL field: empty, or a web URL. */
export function validateWebUrl(value: string | null | undefined): true | string {
  return !value || webUrl(value) !== null || WEB_URL_RULE
}
