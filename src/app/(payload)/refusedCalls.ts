import { headers } from 'next/headers'
import { notFound } from 'next/navigation'
import { getPayload, type SanitizedConfig } from 'payload'
import { formStateForCaller } from '../../collections/lockedDocuments'

/**
 * The admin's server functions (`POST /admin` with `Next-Action`: Payload's form state, lists,
 * documents) fail on a name Payload has none of and, for an anonymous caller, on most names, since
 * they assume a user; Next answers a failed server action 500. Neither is the server's failure but
 * the caller's mistake, so such a call is answered 404: `notFound()` is the one refusal a server
 * action can answer with a status of its own (401 and 403 need an experimental flag). What fails for
 * a signed-in caller of a known name stays Payload's 500: that may be the server's fault.
 */
export async function refusingMistakes<T>(
  config: Promise<SanitizedConfig>,
  args: unknown,
  run: () => Promise<T>,
): Promise<T> {
  if (typeof (args as { name?: unknown } | null)?.name !== 'string') notFound()
  try {
    return await run()
  } catch (error) {
    if (String((error as Error)?.message).startsWith('Unknown Server Function')) notFound()
    const payload = await getPayload({ config: await config })
    const { user } = await payload.auth({ headers: await headers() }).catch(() => ({ user: true }))
    if (!user) notFound()
    throw error
  }
}

/** A server function's call as its caller may make it (`formStateForCaller`: no lock on an item they may not edit). */
export async function callersFormState<T extends { name?: unknown; args?: unknown }>(
  config: Promise<SanitizedConfig>,
  call: T,
): Promise<T> {
  if (call.name !== 'form-state') return call
  const payload = await getPayload({ config: await config })
  const { user } = await payload.auth({ headers: await headers() })
  return (await formStateForCaller(payload, user, call)) as T
}
