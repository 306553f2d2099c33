import config from '@payload-config'
import { GRAPHQL_POST, REST_OPTIONS } from '@payloadcms/next/routes'
import { guardPayloadRest } from '../../../../server/payloadRestGuard'

export const POST = guardPayloadRest(config, GRAPHQL_POST(config))
export const OPTIONS = REST_OPTIONS(config)
