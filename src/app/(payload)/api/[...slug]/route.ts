import config from '@payload-config'
import { REST_DELETE, REST_GET, REST_OPTIONS, REST_PATCH, REST_POST, REST_PUT } from '@payloadcms/next/routes'
import { headFromGet } from '../../../../rest/http/head'
import { withDecodablePath } from '../../../../rest/http/pathGuard'

export const GET = withDecodablePath(REST_GET(config))
export const POST = withDecodablePath(REST_POST(config))
export const DELETE = withDecodablePath(REST_DELETE(config))
export const PATCH = withDecodablePath(REST_PATCH(config))
export const PUT = withDecodablePath(REST_PUT(config))
export const OPTIONS = withDecodablePath(REST_OPTIONS(config))
export const HEAD = headFromGet(GET)
