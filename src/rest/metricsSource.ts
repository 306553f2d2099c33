import type { Payload } from 'payload'
import { poolUse, readBacklog } from '../database/backlog'
import { calendarRuntime } from '../options'
import { metrics } from '../server/metrics'
import { namespacePathOf } from './mount'
import { routePattern } from './pipeline'
import { endpointPath } from './withoutNext'

/** Gives the metrics what only Payload's side knows (the plugin's `onInit`): the route table and the database. */
export function installMetricsSource(payload: Payload): void {
  const { namespace } = calendarRuntime(payload.config)
  metrics().source = {
    routeOf(method, url) {
      const path = endpointPath(payload.config, url.split('?', 1)[0]!)
      if (path === undefined) return undefined
      return (
        routePattern(method === 'HEAD' ? 'GET' : method, namespacePathOf(path, namespace)) ??
        'unmatched'
      )
    },
    async read() {
      const backlog = await readBacklog(payload).catch((error: unknown) => {
        payload.logger.warn(
          `metrics: the backlog could not be read: ${error instanceof Error ? error.message : String(error)}`,
        )
        return undefined
      })
      return { pool: poolUse(payload), backlog }
    },
  }
}
