import type { Payload } from 'payload'
import { DEFAULT_LANGUAGE, isLanguageCode } from '../i18n/languages'
import { pageMessagesOf } from '../i18n/messages'
import { calendarRuntime } from '../options'
import { publicOrigin } from '../collections/clientAddress'
import { htmlResponse, NO_STORE, notFound, pageDocument } from './document'
import { html } from './html'
import { NamespaceRefused, namespaceReader } from './namespace'
import type { Site } from './site'

/** How the namespace answers a request in this process (`rest/withoutNext.ts`), handed in by the app. */
export type AnswerInProcess = (
  payload: Payload,
  request: Request,
) => (() => Promise<Response>) | undefined

/** A page made from its path's segments after the language prefix (decoded), the visited URL and the namespace's root URL. */
export type Render = (
  site: Site,
  segments: string[],
  visit: URL,
  namespaceRoot: string,
) => Promise<Response>

/** The path's segments, decoded, and its language prefix (pages' own first segments are never language codes). */
function segmentsOf(visit: URL): { prefix?: string; segments: string[] } {
  const segments = visit.pathname.split('/').filter(Boolean).map(decodeURIComponent)
  return isLanguageCode(segments[0])
    ? { prefix: segments[0], segments: segments.slice(1) }
    : { segments }
}

/**
 * A public page (docs/public-face.md "Public pages"): 404 when the plugin's `publicPages` is off or
 * the language prefix is not one the namespace has; otherwise rendered from the namespace as an
 * anonymous visitor in the path's language. A namespace that cannot answer makes a 503, one over the visitor's read rate a 429.
 */
export async function servePage(
  payload: Payload,
  answerInProcess: AnswerInProcess,
  request: Request,
  render: Render,
): Promise<Response> {
  const runtime = calendarRuntime(payload.config)
  const visit = new URL(request.url)
  const { prefix, segments } = segmentsOf(visit)
  const language = prefix ?? DEFAULT_LANGUAGE
  if (!runtime.publicPages || !isLanguageCode(language) || prefix === DEFAULT_LANGUAGE)
    return notFound(DEFAULT_LANGUAGE)
  const root = `${payload.config.routes.api}/${runtime.namespace}`
  const answer = (asked: Request) => answerInProcess(payload, asked)!()
  const site: Site = {
    payload,
    origin: publicOrigin(payload.config.serverURL, request.headers, visit),
    language,
    ns: namespaceReader(answer, request, root, language),
    in: (other) => namespaceReader(answer, request, root, other),
  }
  try {
    return await render(site, segments, visit, `${site.origin}${root}`)
  } catch (error) {
    if (!(error instanceof NamespaceRefused)) throw error
    const words = pageMessagesOf(language)
    const title = error.status === 429 ? words.tooManyRequests : words.unavailable
    const body = html`<h1>${title}</h1>
      <p>${words.cannotRead}</p>`
    return htmlResponse(
      pageDocument({ language, title }, body),
      error.status,
      NO_STORE,
      error.retryAfter ? { 'Retry-After': error.retryAfter } : {},
    )
  }
}
