import { capabilities } from '../../calendar/access/capabilities'
import type { TermResource } from '../../calendar/resources'
import { findTerms } from '../../operations/terms/find'
import { findTerm } from '../../operations/terms/findOne'
import type { RestContext } from '../context'
import { listResult, pageSize } from '../http/pagination'
import type { HttpMethod, RestResult } from '../route'
import type { TermListParams } from '../schemas/terms'
import { serializeTerm, termLinks } from '../serialize/term'

/** Categories and tags are managed by editors and administrators (docs/api.md §6.1). */
export const mayManageTerms = (ctx: RestContext) => capabilities.manageTerms(ctx.actor)

/** `GET /categories`, `GET /tags` (docs/api.md §8): past the last page is an empty 200. */
export async function listTerms(
  ctx: RestContext,
  terms: TermResource,
  params: TermListParams & { parent?: number },
): Promise<RestResult> {
  const perPage = pageSize(ctx, params.per_page)
  const { docs, related, total } = await findTerms(ctx, terms, params, {
    page: params.page,
    perPage,
  })
  return listResult({
    ctx,
    route: terms.key,
    key: terms.key,
    items: docs.map((doc) => serializeTerm(ctx, terms.singular, doc, related)),
    total,
    page: params.page,
    perPage,
    echo: [],
    kept: { in: 'header', args: termFilters(params, perPage) },
    termOrder: true,
  })
}

/**
 * The list's arguments as the `Link` header's next and previous URLs carry them, so that following
 * one gives the next page of the same list (docs/api.md §8); `hide_empty` only when it is off,
 * `post` for `event` too.
 */
function termFilters(
  params: TermListParams & { parent?: number },
  perPage: number,
): [string, string][] {
  const given: [string, string | undefined][] = [
    ['per_page', String(perPage)],
    ['search', params.search],
    ['exclude', params.exclude?.join(',')],
    ['include', params.include?.join(',')],
    ['order', params.order],
    ['orderby', params.orderby],
    ['hide_empty', params.hide_empty ? undefined : '0'],
    ['parent', params.parent?.toString()],
    ['post', (params.event ?? params.post)?.toString()],
    ['slug', params.slug],
  ]
  return given.filter((pair): pair is [string, string] => pair[1] !== undefined)
}

const EVERY_METHOD: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The term as it is now; single reads and writes add WordPress's `_links`, deletes answer without. */
export async function readTerm(
  ctx: RestContext,
  terms: TermResource,
  id: number,
  { links }: { links: boolean },
): Promise<RestResult> {
  const { doc, related } = await findTerm(ctx, terms, id)
  const body = serializeTerm(ctx, terms.singular, doc, related)
  if (!links) return { body }
  return {
    body: {
      ...body,
      _links: termLinks(ctx, terms.singular, doc, mayManageTerms(ctx) ? EVERY_METHOD : ['GET']),
    },
  }
}
