/**
 * The interactive API reference: Swagger UI (the `swagger-ui-dist` package, served from this server,
 * nothing from a CDN) rendering `/doc`, at `/api/<namespace>/reference` and on every language root.
 * The page refers to its assets and to the document relative to itself, so `/fr/api/.../reference`
 * renders the French root's document.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Endpoint, PayloadHandler, PayloadRequest } from 'payload'
import { errorResponse, RestError } from '../server/errors'

/** Files of the package the page uses, with their media types. */
const PACKAGE_ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
}

/** Starts Swagger UI on the document next to the page; a file rather than inline, for the CSP. */
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: new URL('doc', window.location.href).href,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  filter: true,
  validatorUrl: null,
  queryConfigEnabled: false,
});
`

const ASSET_CACHE = 'public, max-age=86400, immutable'

type Asset = { body: Uint8Array<ArrayBuffer>; type: string }

/**
 * The installed `swagger-ui-dist`, resolved from the app's root at run time: the files are read from
 * disk, not bundled into the server.
 */
let packageDirectory: Promise<{ directory: string; version: string }> | undefined
function swaggerUiDist() {
  packageDirectory ??= (async () => {
    const resolve = createRequire(path.join(process.cwd(), 'package.json')).resolve
    const manifest = resolve('swagger-ui-dist/package.json')
    const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string }
    return { directory: path.dirname(manifest), version }
  })()
  return packageDirectory
}

const assets = new Map<string, Promise<Asset>>()

function asset(name: string): Promise<Asset> | undefined {
  if (name === 'reference.js')
    return Promise.resolve({
      body: new TextEncoder().encode(INITIALIZER),
      type: 'text/javascript; charset=utf-8',
    })
  const type = PACKAGE_ASSETS[name]
  if (!type) return undefined
  let loading = assets.get(name)
  if (!loading) {
    loading = swaggerUiDist().then(async ({ directory }) => ({
      body: new Uint8Array(await readFile(path.join(directory, name))),
      type,
    }))
    // A failed read is tried again by the next request rather than remembered.
    loading.catch(() => assets.delete(name))
    assets.set(name, loading)
  }
  return loading
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function page(version: string): string {
  const at = (file: string) => escapeAttribute(`reference/${file}?v=${version}`)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Events Calendar REST API reference</title>
<link rel="stylesheet" href="${at('swagger-ui.css')}">
<link rel="icon" type="image/png" sizes="32x32" href="${at('favicon-32x32.png')}">
<link rel="icon" type="image/png" sizes="16x16" href="${at('favicon-16x16.png')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${at('swagger-ui-bundle.js')}"></script>
<script src="${at('reference.js')}"></script>
</body>
</html>
`
}

/** Only this server's origin (and the configured public one): "Try it out" cannot be pointed elsewhere. */
function contentSecurityPolicy(req: PayloadRequest): string {
  const serverUrl = URL.canParse(req.payload.config.serverURL ?? '')
    ? new URL(req.payload.config.serverURL).origin
    : undefined
  const self = serverUrl ? `'self' ${serverUrl}` : `'self'`
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${self}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

const pageHandler: PayloadHandler = async (req) => {
  const url = new URL(req.url ?? 'http://localhost/')
  // The page's relative URLs need it to be `.../reference`, not `.../reference/`.
  if (url.pathname.endsWith('/'))
    return new Response(null, {
      status: 308,
      headers: { Location: `${url.pathname.replace(/\/+$/, '')}${url.search}` },
    })
  const { version } = await swaggerUiDist()
  return new Response(page(version), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': contentSecurityPolicy(req),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  })
}

const assetHandler: PayloadHandler = async (req) => {
  const name = String(req.routeParams?.asset ?? '')
  const found = asset(name)
  if (!found) return errorResponse(RestError.noRoute())
  const { body, type } = await found
  return new Response(body, {
    headers: {
      'Content-Type': type,
      'Cache-Control': ASSET_CACHE,
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

/** Payload endpoints of the reference; they go before the namespace's catch-all endpoints, which would match too. */
export function referenceEndpoints(namespace: string): Endpoint[] {
  return [
    { path: `/${namespace}/reference`, method: 'get', handler: pageHandler },
    { path: `/${namespace}/reference/:asset`, method: 'get', handler: assetHandler },
  ]
}
