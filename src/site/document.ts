import { DEFAULT_LANGUAGE, isRightToLeft, languageTag, type LanguageCode } from '../i18n/languages'
import { pageMessagesOf } from '../i18n/messages'
import { html, jsonLdScript, type Html } from './html'

/** What a page says about itself in its head (docs/public-face.md "Public pages"). */
export type Head = {
  language: LanguageCode
  title: string
  description?: string
  /** The page's permalink, as the namespace gives it (`url`). */
  canonical?: string
  /** The same page in each language that has a translation, the default language included. */
  alternates?: { language: LanguageCode; url: string }[]
  image?: string
  /** The image's text for those who cannot see it, as the media library holds it. */
  imageAlt?: string
  /** OpenGraph type: `website`, or `event`... */
  type?: string
  jsonLd?: unknown
}

export const STYLESHEET = '/calendar/pages.css'

/** `/events/` in the page's language, so that a reader who follows it stays in that language. */
export function eventsPath(language: LanguageCode): string {
  return language === DEFAULT_LANGUAGE ? '/events/' : `/${language}/events/`
}

/**
 * Scripts only from this site (the widget), none inline but JSON-LD, which is data and runs nothing;
 * styles from the stylesheet alone; the password form posts only here.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // A description's alignment and indent, the editor's own, are style attributes its HTML is
  // rendered with (`descriptionHtml.ts`); no author writes them, so no author can inject others.
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

function meta(property: string, content: string | undefined): Html {
  return content ? html`<meta property="${property}" content="${content}" />` : html``
}

function named(name: string, content: string | undefined): Html {
  return content ? html`<meta name="${name}" content="${content}" />` : html``
}

/**
 * The attributes of an item's own words (its name, its description) on a page in a language the item
 * has no translation in: the namespace gave them in English, under a page that says it is in
 * another language, so a screen reader read English words with, say, an Arabic voice right to left.
 * `alternates` are the item's translations (`alternatesOf`); none known, nothing is said.
 */
export function ownWordsLanguage(
  language: LanguageCode,
  alternates: NonNullable<Head['alternates']>,
): Html {
  if (language === DEFAULT_LANGUAGE || !alternates.length) return html``
  if (alternates.some((alternate) => alternate.language === language)) return html``
  return html` lang="${languageTag(DEFAULT_LANGUAGE)}"${isRightToLeft(language) ? html` dir="ltr"` : ''}`
}

export function pageDocument(head: Head, body: Html): string {
  const rtl = isRightToLeft(head.language)
  const alternates = head.alternates ?? []
  const fallback = alternates.find((alternate) => alternate.language === 'en')
  return html`<!doctype html>
    <html lang="${languageTag(head.language)}" ${rtl ? html` dir="rtl"` : ''}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${head.title}</title>
        ${named('description', head.description)} ${head.canonical ? html`<link rel="canonical" href="${head.canonical}" />` : ''}
        ${alternates.map((alternate) => html`<link rel="alternate" hreflang="${languageTag(alternate.language)}" href="${alternate.url}" /> `)}
        ${fallback ? html`<link rel="alternate" hreflang="x-default" href="${fallback.url}" />` : ''} ${meta('og:type', head.type ?? 'website')}
        ${meta('og:title', head.title)} ${meta('og:description', head.description)} ${meta('og:url', head.canonical)} ${meta('og:image', head.image)} ${meta('og:image:alt', head.image ? head.imageAlt : undefined)}
        ${meta('og:locale', languageTag(head.language).replace('-', '_'))} ${named('twitter:card', head.image ? 'summary_large_image' : 'summary')}
        ${named('twitter:title', head.title)} ${named('twitter:description', head.description)} ${named('twitter:image', head.image)}
        <link rel="stylesheet" href="${STYLESHEET}" />
        ${head.jsonLd ? jsonLdScript(head.jsonLd) : ''}
      </head>
      <body>
        <header class="site"><a href="${eventsPath(head.language)}">${pageMessagesOf(head.language).events}</a></header>
        <main id="main">${body}</main>
      </body>
    </html> `.text
}

/** A page's answer: HTML under the policy above; `private, no-store` for what a password unlocked or was tried on. */
export function htmlResponse(
  document: string,
  status: number,
  cacheControl: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(document, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Cache-Control': cacheControl,
      ...extra,
    },
  })
}

export const NO_STORE = 'private, no-store'

/** What the namespace answers a page that is not there, or not for everyone: the same page for both. */
export function notFound(language: LanguageCode): Response {
  const words = pageMessagesOf(language)
  const body = html`<h1>${words.notFound}</h1>
    <p>${words.nothingHere} <a href="${eventsPath(language)}">${words.seeAllEvents}</a></p>`
  return htmlResponse(pageDocument({ language, title: words.notFound }, body), 404, NO_STORE)
}

export function badRequest(language: LanguageCode, message: string, status = 400): Response {
  const words = pageMessagesOf(language)
  const body = html`<h1>${words.badRequest}</h1>
    <p>${message}</p>
    <p><a href="${eventsPath(language)}">${words.seeAllEvents}</a></p>`
  return htmlResponse(pageDocument({ language, title: words.badRequest }, body), status, NO_STORE)
}
