import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages'

/** An answer of the namespace: its status, its JSON (or text) and its headers. */
export type Answer<T> = { status: number; body: T; headers: Headers }

export type Query = Record<string, string | number | undefined>

/** The namespace as an anonymous reader in one language: what a visitor's own browser could ask it. */
export type Namespace = {
  language: LanguageCode
  get<T>(path: string, query?: Query): Promise<Answer<T>>
  text(path: string, query?: Query): Promise<Answer<string>>
}

/**
 * The namespace could not answer (its database is away: 503), or will not for this visitor now (over
 * the read rate limit: 429): the page cannot either, and says so with the same status.
 */
export class NamespaceRefused extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | null,
  ) {
    super(`The namespace answered ${status}`)
  }
}

/** Request headers that say where the visitor is and which site they reached: the namespace throttles and writes URLs by them. */
const PASSED_ON = ['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']

/**
 * Reads through the namespace in this process (`answer`: the namespace's own GET, without HTTP), as
 * the visitor of a page, but without their cookies or credentials: a page shows exactly what the
 * namespace shows anyone, and anonymous answers come from its per-revision answer cache.
 */
export function namespaceReader(
  answer: (request: Request) => Promise<Response>,
  visit: Request,
  root: string,
  language: LanguageCode,
): Namespace {
  const origin = new URL(visit.url).origin
  const headers = new Headers()
  for (const name of PASSED_ON) {
    const value = visit.headers.get(name)
    if (value) headers.set(name, value)
  }
  const base = `${origin}${language === DEFAULT_LANGUAGE ? '' : `/${language}`}${root}`
  const ask = async (path: string, query: Query = {}) => {
    const url = new URL(base + path)
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value))
    const response = await answer(new Request(url, { headers }))
    // A wrong password's 429 is the event page's to show (beside its form).
    if (response.status >= 500 || (response.status === 429 && !query.password))
      throw new NamespaceRefused(response.status, response.headers.get('retry-after'))
    return { status: response.status, text: await response.text(), headers: response.headers }
  }
  return {
    language,
    async get<T>(path: string, query?: Query) {
      const { status, text, headers: answered } = await ask(path, query)
      return { status, body: JSON.parse(text) as T, headers: answered }
    },
    async text(path: string, query?: Query) {
      const { status, text, headers: answered } = await ask(path, query)
      return { status, body: text, headers: answered }
    },
  }
}
