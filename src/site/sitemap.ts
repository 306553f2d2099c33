import { sideBySide } from '../calendar/sideBySide'
import { DEFAULT_LANGUAGE, languageTag } from '../i18n/languages'
import { alternateUrls, translationsOf, type Alternate } from './alternates'
import { html, type Html } from './html'
import type { Namespace } from './namespace'
import type { Site } from './site'

/** The sitemaps protocol's limit of URLs in one file; past it, `/sitemap.xml` is an index of parts. */
export const SITEMAP_LIMIT = 50_000
const PER_PAGE = 50
/** Items of a page whose translations are read at once: each reads the namespace once per language. */
const SIDE_BY_SIDE = 8

/** What the sitemap lists, in this order: each a list of the namespace and the key of its items. */
const SOURCES = [
  // Every published event the list shows, past ones too: a relative bound drops the default window,
  // and one before the calendar's first year is held at its start (docs/api.md §4.2).
  { path: '/events', key: 'events', collection: 'events', query: { ends_after: '0000-01-01' } },
  { path: '/venues', key: 'venues', collection: 'venues', query: {} },
  { path: '/organizers', key: 'organizers', collection: 'organizers', query: {} },
  {
    path: '/categories',
    key: 'categories',
    collection: 'event-categories',
    query: { hide_empty: 'false' },
  },
  { path: '/tags', key: 'tags', collection: 'event-tags', query: { hide_empty: 'false' } },
] as const

/** One page of one source to read, and which of its items (from, to: indexes in the page) belong to the part. */
export type Slice = { source: number; page: number; from: number; to: number }

/**
 * The pages to read for part `part` (from 0) of a sitemap whose sources hold `totals` items, each
 * part `limit` items of the sources one after the other, read `perPage` at a time.
 */
export function partSlices(
  totals: number[],
  part: number,
  limit: number,
  perPage: number,
): Slice[] {
  const slices: Slice[] = []
  const first = part * limit
  const end = first + limit
  let offset = 0
  totals.forEach((total, source) => {
    const from = Math.max(first, offset) - offset
    const to = Math.min(end, offset + total) - offset
    for (let start = Math.floor(from / perPage) * perPage; start < to; start += perPage) {
      slices.push({
        source,
        page: start / perPage + 1,
        from: Math.max(from - start, 0),
        to: Math.min(to - start, perPage),
      })
    }
    offset += total
  })
  return slices
}

type Page = Record<string, unknown> & { total?: number }

async function read(ns: Namespace, source: number, page: number): Promise<Page | undefined> {
  const { path, query } = SOURCES[source]!
  const answer = await ns.get<Page>(path, { ...query, per_page: PER_PAGE, page })
  return answer.status === 200 ? answer.body : undefined
}

type Entry = { url: string; alternates: Alternate[] }

/** Each item's URL and, for an item written in other languages too, its page in each of them and in English. */
async function entriesOf(
  site: Site,
  source: number,
  items: { id: number; url?: string }[],
): Promise<Entry[]> {
  const { collection } = SOURCES[source]!
  const listed = items.filter((item): item is { id: number; url: string } => Boolean(item.url))
  const translations = await translationsOf(
    site.payload,
    collection,
    listed.map((item) => item.id),
  )
  return sideBySide(listed, SIDE_BY_SIDE, async (item) => {
    const languages = (translations.get(item.id) ?? []).filter(
      (language) => language !== DEFAULT_LANGUAGE,
    )
    return {
      url: item.url,
      alternates: languages.length
        ? await alternateUrls(site.in, collection, item.id, languages)
        : [],
    }
  })
}

/** Google's sitemap hreflang: every version of the page, itself included, and English as the default. */
function urlElement({ url, alternates }: Entry): Html {
  const links = alternates.length
    ? [
        ...alternates.map((alternate) => ({
          hreflang: languageTag(alternate.language),
          url: alternate.url,
        })),
        { hreflang: 'x-default', url },
      ]
    : []
  return html`<url><loc>${url}</loc>${links.map((link) => html`<xhtml:link rel="alternate" hreflang="${link.hreflang}" href="${link.url}" />`)}</url> `
}

const XML = {
  'Content-Type': 'application/xml; charset=utf-8',
  'Cache-Control': 'public, max-age=0, must-revalidate',
}

function xml(body: Html): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body.text}`, { headers: XML })
}

/**
 * `/sitemap.xml`: the permalinks of everything the namespace lists to anyone (published events,
 * venues, organizers, categories and tags), in the default language, each with its translations'
 * pages as alternates. Up to 50,000 URLs it is one file; past that, an index of
 * `/sitemap.xml?part=N`, each part the next 50,000.
 */
export async function sitemap(site: Site, visit: URL, limit = SITEMAP_LIMIT): Promise<Response> {
  const ns = site.ns
  const firsts = await Promise.all(SOURCES.map((_, source) => read(ns, source, 1)))
  const totals = firsts.map((first) => Number(first?.total ?? 0))
  const parts = Math.max(1, Math.ceil(totals.reduce((sum, total) => sum + total, 0) / limit))
  const asked = visit.searchParams.get('part')
  if (asked === null && parts > 1) {
    const locs = Array.from(
      { length: parts },
      (_, part) => `${site.origin}${visit.pathname}?part=${part + 1}`,
    )
    return xml(
      html`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"> ${locs.map((loc) => html`<sitemap><loc>${loc}</loc></sitemap> `)}</sitemapindex>`,
    )
  }
  const part = asked === null ? 1 : Number(asked)
  if (!Number.isInteger(part) || part < 1 || part > parts)
    return new Response('No such part of the sitemap.', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  const entries: Entry[] = []
  for (const slice of partSlices(totals, part - 1, limit, PER_PAGE)) {
    const page = slice.page === 1 ? firsts[slice.source] : await read(ns, slice.source, slice.page)
    const items = (page?.[SOURCES[slice.source]!.key] ?? []) as { id: number; url?: string }[]
    entries.push(...(await entriesOf(site, slice.source, items.slice(slice.from, slice.to))))
  }
  return xml(
    html`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"> ${entries.map(urlElement)}</urlset>`,
  )
}
