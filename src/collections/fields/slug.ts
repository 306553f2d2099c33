import { ValidationError, type CollectionSlug, type Field, type PayloadRequest } from 'payload'
import { holdUntilCommit } from '../../database/exclusive'

/** `Summer Fête 2026` → `summer-fête-2026`: letters of every script are kept, as WordPress keeps them. */
export function slugify(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190)
}

/** The slug a text gives before any `-2` suffix; text without letters or digits gives `item`. */
export function slugBase(text: string): string {
  return slugify(text) || 'item'
}

/** Whether another record of the collection has this slug in the language (the request's by default); trashed ones count. */
export async function slugTaken(
  req: PayloadRequest,
  collection: CollectionSlug,
  slug: string,
  excludeId: unknown,
  locale = req.locale,
): Promise<boolean> {
  const { totalDocs } = await req.payload.count({
    collection,
    req,
    locale: locale && locale !== 'all' ? locale : undefined,
    overrideAccess: true,
    where: excludeId
      ? { and: [{ slug: { equals: slug } }, { id: { not_equals: excludeId } }] }
      : { slug: { equals: slug } },
  })
  return totalDocs > 0
}

/**
 * `base`, or `base-2`, `base-3`... : the first that no other record has in the language. Writes
 * choosing a slug that may meet take turns to their commits: two at once chose the same slug. A base
 * is held by what it is without its numbers at the end, so `concert` (which may become `concert-2`)
 * and `concert-2` wait for each other: held by the base itself, the two stored `concert-2` at once.
 */
export async function freeSlug(
  req: PayloadRequest,
  collection: CollectionSlug,
  base: string,
  excludeId: unknown,
  locale = req.locale,
): Promise<string> {
  await holdUntilCommit(req, `slug:${collection}:${locale}:${base.replace(/(-\d+)+$/, '')}`)
  let candidate = base
  for (let n = 2; await slugTaken(req, collection, candidate, excludeId, locale); n++)
    candidate = `${base}-${n}`
  return candidate
}

const EXACT_SLUG = 'calendar:exact-slug'

/**
 * Has the update of `id` in this request refuse a slug another item has with `refusal`, rather than
 * suffix it: the namespace's rename asks for that exact address (docs/api.md §6.1). Its own check
 * before the write cannot see a slug another write takes meanwhile; the field's, under the slug's
 * lock, does.
 */
export function renameExactly(
  req: PayloadRequest,
  collection: CollectionSlug,
  id: number,
  refusal: string,
): void {
  req.context[EXACT_SLUG] = { collection, id, refusal }
}

/**
 * A localized, unique-per-language slug, generated from `fromField` when left empty and suffixed
 * `-2`, `-3`... on collision, as WordPress does with post names.
 */
export function slugField(collection: CollectionSlug, fromField: string): Field {
  return {
    name: 'slug',
    type: 'text',
    localized: true,
    index: true,
    admin: { position: 'sidebar', description: 'Generated from the name when left empty.' },
    hooks: {
      beforeValidate: [
        async ({ value, siblingData, req, originalDoc, operation }) => {
          const blank = typeof value === 'string' && !value.trim()
          // A slug sent blank is made again from the name: the one written, else the stored one.
          const name: unknown =
            siblingData?.[fromField] ?? (blank ? originalDoc?.[fromField] : undefined)
          const source = typeof value === 'string' && !blank ? value : name
          if (typeof source !== 'string' || !source.trim())
            return blank ? freeSlug(req, collection, slugBase(''), originalDoc?.id) : value
          // Unchanged slugs on update keep their value without a lookup.
          if (operation === 'update' && value && value === originalDoc?.slug) return value
          const wanted = slugBase(source)
          const slug = await freeSlug(req, collection, wanted, originalDoc?.id)
          const exact = req.context[EXACT_SLUG] as
            { collection: string; id: number; refusal: string } | undefined
          if (
            slug !== wanted &&
            operation === 'update' &&
            exact?.collection === collection &&
            exact.id === originalDoc?.id
          )
            throw new ValidationError({
              collection,
              errors: [{ path: 'slug', message: exact.refusal }],
            })
          return slug
        },
      ],
    },
  }
}
