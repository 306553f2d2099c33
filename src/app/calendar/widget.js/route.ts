import { ifNoneMatch } from '../../../rest/answerTag'
import { WIDGET_CACHE_CONTROL, widgetBundle } from '../widgetBundle'

export const dynamic = 'force-dynamic'

/** `<script src>` needs no CORS, but a page may load the widget as a module or with integrity, which do. */
const HEADERS = {
  'Cache-Control': WIDGET_CACHE_CONTROL,
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
}

export async function GET(request: Request): Promise<Response> {
  let bundle: Awaited<ReturnType<typeof widgetBundle>>
  try {
    bundle = await widgetBundle()
  } catch {
    return Response.json(
      {
        code: 'widget_not_built',
        message: 'The widget has not been built: run npm run build.',
        data: { status: 404 },
      },
      { status: 404 },
    )
  }
  const headers = { ...HEADERS, ETag: bundle.etag }
  if (ifNoneMatch(request.headers.get('if-none-match'), bundle.etag, true))
    return new Response(null, { status: 304, headers })
  return new Response(new Uint8Array(bundle.body), {
    headers: { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' },
  })
}
