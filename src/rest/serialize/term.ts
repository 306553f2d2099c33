import { CATEGORIES, TAGS, type TermResource } from '../../calendar/resources'
import type { EventCategory, EventTag } from '../../payload-types'
import type { RestContext } from '../context'
import type { HttpMethod } from '../route'
import { idOf, permalink } from './common'
import { extraKeysOf } from './customFields'
import type { Related } from '../../operations/related'

export type TermKind = TermResource['singular']

const TAXONOMY: Record<TermKind, string> = { category: 'event_category', tag: 'event_tag' }
const ROUTE: Record<TermKind, TermResource['key']> = { category: CATEGORIES.key, tag: TAGS.key }

type Term = EventCategory | EventTag

function parentOf(term: Term): number {
  return ('parent' in term && idOf(term.parent)) || 0
}

function termUrls(ctx: RestContext, kind: TermKind, term: Term) {
  const collection = `${ctx.root}/${ROUTE[kind]}`
  const parent = parentOf(term)
  return {
    self: `${collection}/${term.id}`,
    collection,
    ...(parent ? { up: `${collection}/${parent}` } : {}),
  }
}

export function termCount(related: Related, kind: TermKind, id: number): number {
  return related.termCounts.get(`${kind}:${id}`) ?? 0
}

/** The term as the `/categories` and `/tags` routes answer it (docs/api.md §3.5 a). */
export function serializeTerm(ctx: RestContext, kind: TermKind, term: Term, related: Related) {
  return {
    id: term.id,
    count: termCount(related, kind, term.id),
    description: term.description ?? '',
    name: term.name,
    slug: term.slug ?? '',
    taxonomy: TAXONOMY[kind],
    ...(kind === 'category' ? { parent: parentOf(term) } : {}),
    meta: [],
    // A child category's archive sits below its ancestors', as WordPress builds hierarchical term links.
    url: permalink(ctx, kind, [
      ...(related.categoryAncestors?.get(term.id) ?? []),
      term.slug ?? '',
    ]),
    urls: termUrls(ctx, kind, term),
    ...extraKeysOf(ctx, ROUTE[kind], term as unknown as Record<string, unknown>),
  }
}

/**
 * WordPress's `_links` of a single-term answer, into this namespace: `self` says which methods the
 * caller may use on it (`targetHints.allow`).
 */
export function termLinks(
  ctx: RestContext,
  kind: TermKind,
  term: Term,
  allow: readonly HttpMethod[],
) {
  const urls = termUrls(ctx, kind, term)
  return {
    self: [{ href: urls.self, targetHints: { allow } }],
    collection: [{ href: urls.collection }],
    // WordPress marks a term's parent embeddable (`_embed` would include it).
    ...(urls.up ? { up: [{ href: urls.up, embeddable: true }] } : {}),
  }
}

/** The term as events embed it (docs/api.md §3.5 b): WordPress's raw term object. */
export function serializeEmbeddedTerm(
  ctx: RestContext,
  kind: TermKind,
  term: Term,
  related: Related,
) {
  return {
    name: term.name,
    slug: term.slug ?? '',
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: TAXONOMY[kind],
    description: term.description ?? '',
    parent: parentOf(term),
    count: termCount(related, kind, term.id),
    filter: 'raw',
    id: term.id,
    urls: termUrls(ctx, kind, term),
    ...extraKeysOf(ctx, ROUTE[kind], term as unknown as Record<string, unknown>),
  }
}
