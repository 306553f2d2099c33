import { APIError, type Payload, type Where } from 'payload'
import { deeperThan, jsonChildren, MAX_JSON_DEPTH, TOO_DEEP } from '../calendar/depth'

/**
 * Refuses a write's data or a query's `where` nested past `MAX_JSON_DEPTH`, 400, before Payload
 * copies or walks it by recursion, whichever door brought it: a multipart `_payload`, a GraphQL
 * literal, the local API. JSON bodies and GraphQL variables are refused earlier, by the guard of
 * Payload's routes (`server/payloadRestGuard.ts`), with the same bound; these are what it cannot
 * see without reading a form or a query's values.
 */
function refuseDeep<A>(args: A): A {
  const { data, where } = args as { data?: unknown; where?: Where }
  for (const [name, value] of [
    ['data', data],
    ['where', where],
  ] as const)
    if (deeperThan(value, jsonChildren, MAX_JSON_DEPTH))
      throw new APIError(`The ${name} ${TOO_DEEP}.`, 400, null, true)
  return args
}

/** Installs the refusal first on every collection and global of the running config, Payload's own included. */
export function refuseDeepArguments(payload: Payload): void {
  const configs = [
    ...Object.values(payload.collections).map(({ config }) => config),
    ...payload.globals.config,
  ]
  for (const config of configs)
    config.hooks.beforeOperation = [
      ({ args }: { args: unknown }) => refuseDeep(args),
      ...(config.hooks.beforeOperation ?? []),
    ] as typeof config.hooks.beforeOperation
}
