import type { RestContext } from '../context'
import { RestError } from '../../server/errors'
import type { RestResult } from '../route'
import { jsonArray, JsonObjectWriter } from './jsonText'

/** The largest page any list answers; larger `per_page` values are clamped, as upstream (docs/api.md §15). */
export const MAX_PER_PAGE = 50

export function pageSize(ctx: RestContext, requested: number | undefined): number {
  return Math.min(requested ?? ctx.settings.postsPerPage, MAX_PER_PAGE)
}

type ListPage = {
  ctx: RestContext
  /** Route of the list under the namespace root: `events`, `venues`... */
  route: string
  /** Wrapper key of the items: `events`, `venues`... */
  key: string
  items: unknown[]
  total: number
  page: number
  perPage: number
  /** The effective query arguments but `page`, echoed in `rest_url` in this order. */
  echo: [string, string][]
  /**
   * Arguments `rest_url` does not echo that some links keep, so that following one gives a page of
   * the same list, and which links: `pages`, the next and previous URLs and the `Link` header, after
   * the echoed ones (upstream leaves them out of `rest_url`, docs/api.md §4.5); `header`, the `Link`
   * header alone, before them (term lists' `next_rest_url` and `previous_rest_url` drop their filters
   * as upstream's do, the header, ours, keeps them: docs/api.md §8).
   */
  kept?: { in: 'pages' | 'header'; args: [string, string][] }
  /** Code of the 404 answered for a page past the end; terms answer an empty 200 instead. */
  pastEndCode?: string
  pastEndMessage?: string
  /** Term lists put the totals before the items and never echo arguments (docs/api.md §8). */
  termOrder?: boolean
}

/**
 * Upstream writes its arguments raw (`start_date=2026-01-01 00:00:00`), which is not a valid URL:
 * ours are percent-encoded, but for the `:` and `,` a query may hold as they are.
 */
function withQuery(base: string, args: [string, string][]): string {
  const encode = (text: string) =>
    encodeURIComponent(text).replace(/%3A/g, ':').replace(/%2C/g, ',')
  const query = args.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')
  return query ? `${base}?${query}` : base
}

/**
 * A list response: wrapper keys and next/previous links by docs/api.md §4.5, plus `X-Total`,
 * `X-Total-Pages` and an RFC 8288 `Link` header (docs/api.md §4.5).
 */
export function listResult(list: ListPage): RestResult {
  const { ctx, page, perPage, total } = list
  const totalPages = total === 0 ? 0 : Math.ceil(total / perPage)
  if (page > 1 && list.items.length === 0 && list.pastEndCode) {
    throw new RestError(
      list.pastEndCode,
      list.pastEndMessage ?? 'The requested page does not exist',
      404,
    )
  }
  const base = `${ctx.root}/${list.route}/`
  const language: [string, string][] = ctx.requestedLanguage
    ? [['i18n_language', ctx.requestedLanguage]]
    : []
  const args = [...(list.termOrder ? [] : list.echo), ...language]
  // Upstream's `rest_url` starts with `page`; its next and previous URLs drop it and add it back last.
  const kept = list.kept ?? { in: 'pages', args: [] }
  const pageArgs = kept.in === 'pages' ? [...args, ...kept.args] : args
  const pages = (kept: [string, string][]) => {
    const at = (n: number) => withQuery(base, n > 1 ? [...kept, ['page', String(n)]] : kept)
    return {
      next: page < totalPages ? at(page + 1) : undefined,
      prev: page > 1 ? at(page - 1) : undefined,
    }
  }
  const restUrl = withQuery(base, list.termOrder ? language : [['page', String(page)], ...args])
  const { next, prev: previous } = pages(pageArgs)
  const linked = kept.in === 'header' ? pages([...kept.args, ...args]) : { next, prev: previous }
  const links = Object.entries(linked).flatMap(([rel, url]) =>
    url ? [`<${url}>; rel="${rel}"`] : [],
  )
  const headers: Record<string, string> = {
    'X-Total': String(total),
    'X-Total-Pages': String(totalPages),
  }
  if (links.length) headers.Link = links.join(', ')
  const navigation = {
    ...(next ? { next_rest_url: next } : {}),
    ...(previous ? { previous_rest_url: previous } : {}),
  }
  // The items as written one by one (`JsonText`), spliced into the envelope's text.
  const items = jsonArray(list.items)
  const body = list.termOrder
    ? { rest_url: restUrl, total, total_pages: totalPages, [list.key]: items, ...navigation }
    : { [list.key]: items, rest_url: restUrl, ...navigation, total, total_pages: totalPages }
  const out = new JsonObjectWriter()
  for (const [key, value] of Object.entries(body)) out.add(key, value)
  return { body: out.done(), headers }
}
