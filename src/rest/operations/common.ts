import { capabilities, type Status } from '../../calendar/access/capabilities'
import type { RestContext } from '../context'
import { parseDateInput } from '../../calendar/dates/parse'
import { htmlToRichText } from '../../collections/fields/richText'
import { resolveImage } from './imageInput'

/** Payload data shared by events, venues and organizers, from the fields that were sent. */
export async function authoredData(
  ctx: RestContext,
  input: {
    author?: number
    date?: string | number
    date_utc?: string | number
    description?: string
    excerpt?: string
    slug?: string
    status?: Status
    image?: string | number
    password?: string
  },
  zone: string,
  operation: 'create' | 'update',
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {}
  if (input.author !== undefined) data.author = input.author
  const published =
    input.date_utc !== undefined ? parseDateInput(input.date_utc, 'UTC', ctx.now) : input.date !== undefined ? parseDateInput(input.date, zone, ctx.now) : null
  if (published) data.publishedAt = published.toUTC().toISO()
  if (input.description !== undefined) data.description = input.description ? await htmlToRichText(ctx.req.payload.config, input.description) : null
  if (input.excerpt !== undefined) data.excerpt = stripTags(input.excerpt)
  if (input.slug !== undefined) data.slug = input.slug
  if (operation === 'create' || input.status !== undefined) data.status = capabilities.scaleStatus(ctx.actor, input.status)
  if (input.image !== undefined) data.image = await resolveImage(ctx, input.image)
  if (input.password !== undefined) data.password = input.password || null
  return data
}

/** Excerpts are plain text here; markup sent by clients is dropped rather than shown as text. */
export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '').trim()
}
