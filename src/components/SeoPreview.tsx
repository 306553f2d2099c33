import type { PayloadRequest } from 'payload'
import { eventSeo } from '../collections/seo'
import { SeoPreviewCard } from './SeoPreviewCard'

/**
 * The SEO preview of an event, its permalink found while the edit view renders: the plugin's own
 * preview asks the server for it after the page has loaded, twice when the form changes while the
 * first answer is on its way, and the page waits on both.
 */
export async function SeoPreview({
  data,
  req,
}: {
  data?: Record<string, unknown>
  req: PayloadRequest
}) {
  const href = await eventSeo.generateURL({ doc: data ?? {}, locale: req.locale ?? undefined, req })
  return <SeoPreviewCard href={href} />
}
