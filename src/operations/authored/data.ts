import { capabilities } from '../../calendar/access/capabilities'
import { parseDateInput } from '../../calendar/dates/resolve'
import { htmlToRichText, UnreadableHtml } from '../../collections/fields/richText'
import { resolveImage } from '../images'
import { Refusal } from '../refusal'
import type { Writer } from '../writer'
import type { AuthoredInput } from './input'

/** Payload data shared by events, venues and organizers, from the fields that were sent. */
export async function authoredData(
  writer: Writer,
  input: AuthoredInput,
  zone: string,
  operation: 'create' | 'update',
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {}
  if (input.author !== undefined) data.author = input.author
  const published =
    input.date_utc !== undefined
      ? parseDateInput(input.date_utc, 'UTC', writer.now)
      : input.date !== undefined
        ? parseDateInput(input.date, zone, writer.now)
        : null
  // Read but not placed: outside the calendar's years (resolve.ts, `parseDateInput`).
  if (!published && (input.date_utc ?? input.date) !== undefined)
    throw Refusal.invalidParams({
      [input.date_utc !== undefined ? 'date_utc' : 'date']: 'Invalid date.',
    })
  if (published) data.publishedAt = published.toUTC().toISO()
  if (input.description !== undefined)
    data.description = input.description ? await richTextOf(writer, input.description) : null
  if (input.excerpt !== undefined) data.excerpt = stripTags(input.excerpt)
  if (input.slug !== undefined) data.slug = input.slug
  if (operation === 'create' || input.status !== undefined)
    data.status = capabilities.scaleStatus(writer.actor, input.status)
  if (input.image !== undefined) data.image = await resolveImage(writer, input.image)
  if (input.password !== undefined) data.password = input.password || null
  return { ...data, ...input.custom }
}

async function richTextOf(writer: Writer, html: string) {
  try {
    return await htmlToRichText(writer.req.payload.config, html)
  } catch (error) {
    if (error instanceof UnreadableHtml) throw Refusal.invalidParams({ description: error.message })
    throw error
  }
}

/** Excerpts are plain text here; markup sent by clients is dropped rather than shown as text. */
export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '').trim()
}
