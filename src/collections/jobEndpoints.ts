import type { Endpoint, Payload, PayloadRequest } from 'payload'

const JOBS = 'payload-jobs'

/** Payload's endpoints of the jobs queue that answer in a shape of their own. */
const OWN_SHAPE = new Set(['/run', '/handle-schedules'])

/** What a queue's name and a run's limit may be: text a column holds, a whole number from 1. */
function refusedQuery(query: Record<string, unknown>): string | undefined {
  const { limit, queue } = query
  if (limit !== undefined && !(typeof limit === 'string' && /^[1-9]\d{0,5}$/.test(limit)))
    return 'The query parameter "limit" must be a whole number from 1 to 999999.'
  if (queue !== undefined && !(typeof queue === 'string' && /^\P{Cc}{1,200}$/u.test(queue)))
    return 'The query parameter "queue" must be the name of a queue.'
  return undefined
}

const refusal = (status: number, message: string) =>
  Response.json({ errors: [{ message }] }, { status })

/**
 * Payload's `/api/payload-jobs/run` and `/handle-schedules` answer their failures as `{ message }`,
 * outside Payload's error shape, a signed-in caller without the right as 401 (signed out), and a
 * `limit` or `queue` a column cannot take (`limit=1.5`, `queue=%00`) as 500 after the statement
 * failed. They answer in Payload's shape here (docs/api.md §11): 400 for those values, before anything
 * runs; 403 for a signed-in caller without the right; the rest as they were, in `errors`.
 */
function inPayloadsShape(endpoint: Endpoint): Endpoint {
  const handler = endpoint.handler
  return {
    ...endpoint,
    handler: async (req: PayloadRequest) => {
      const refused = refusedQuery(req.query ?? {})
      if (refused) return refusal(400, refused)
      const response = await handler(req)
      if (response.status < 400) return response
      if (response.status === 401 && req.user)
        return refusal(403, req.t('error:notAllowedToPerformAction'))
      const { message } = (await response.json()) as { message?: string }
      return refusal(response.status, message ?? 'Something went wrong.')
    },
  }
}

/** Installs the shape on the jobs collection Payload adds as it sanitizes the config. */
export function shapeJobEndpoints(payload: Payload): void {
  const jobs = payload.collections[JOBS as keyof typeof payload.collections]
  const endpoints = jobs?.config.endpoints
  if (!Array.isArray(endpoints)) return
  jobs!.config.endpoints = endpoints.map((endpoint) =>
    OWN_SHAPE.has(endpoint.path) ? inPayloadsShape(endpoint) : endpoint,
  )
}
