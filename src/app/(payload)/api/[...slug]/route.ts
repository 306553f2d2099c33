import config from '@payload-config'
import {
  REST_DELETE,
  REST_GET,
  REST_OPTIONS,
  REST_PATCH,
  REST_POST,
  REST_PUT,
} from '@payloadcms/next/routes'
import { headFromGet } from '../../../../server/head'
import { guardPayloadRest } from '../../../../server/payloadRestGuard'

export const GET = guardPayloadRest(config, REST_GET(config))
export const POST = guardPayloadRest(config, REST_POST(config))
export const DELETE = guardPayloadRest(config, REST_DELETE(config))
export const PATCH = guardPayloadRest(config, REST_PATCH(config))
export const PUT = guardPayloadRest(config, REST_PUT(config))
export const OPTIONS = REST_OPTIONS(config)
export const HEAD = headFromGet(GET)
