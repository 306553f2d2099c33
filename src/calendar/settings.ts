/**
 * Settings an operator gives in the environment (docs/operations.md) that must be whole numbers. A
 * wrong one stops the server at start with the reason (`scripts/server.ts` reads them all before
 * Next starts): read as a number it was NaN, and every comparison with NaN is false, so a typo in
 * `MAX_BODY_BYTES` read bodies of any size and one in `SHED_MIN_IN_FLIGHT` refused every request.
 */
type Env = Record<string, string | undefined>

/**
 * A setting that is a whole number, at least `least` (how many at once: 1); `fallback` when unset or
 * empty. Anything else stops the server with the reason, before it serves a request with it.
 */
export function wholeNumberSetting(env: Env, name: string, fallback: number, least = 1): number {
  const given = env[name]
  if (given === undefined || given === '') return fallback
  const value = Number(given)
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name} must be a whole number, at least ${least} (got ${given})`)
  return value
}

/** `MAX_BODY_BYTES`: the largest body the namespace reads. */
export const bodyLimit = (env: Env): number =>
  wholeNumberSetting(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024)

/** `LOGIN_FREE_FAILURES_PER_ADDRESS`: failed sign-ins an address makes before its waits start. */
export const loginFreeFailures = (env: Env): number =>
  wholeNumberSetting(env, 'LOGIN_FREE_FAILURES_PER_ADDRESS', 10, 0)

/** `CACHE_MAX_AGE`: seconds shared caches may keep an anonymous namespace answer. */
export const cacheMaxAge = (env: Env): number => wholeNumberSetting(env, 'CACHE_MAX_AGE', 0, 0)

/** Reads the settings Next's bundle reads when it first needs them, so that a wrong one stops the server at start. */
export function readSettingsAtStart(env: Env): void {
  bodyLimit(env)
  loginFreeFailures(env)
  cacheMaxAge(env)
}
