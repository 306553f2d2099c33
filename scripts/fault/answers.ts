const REQUEST_TIMEOUT_MS = 20_000

/** A JSON answer's fields, or the text when it is not JSON. */
export type Answer = { token?: string; id?: number; code?: string; status?: string } | string | null

export function field<K extends 'token' | 'id' | 'code' | 'status'>(body: Answer, name: K) {
  return body && typeof body === 'object' ? body[name] : undefined
}

/** One request; a failure to get any answer is status 0 with the error, never a throw. */
export async function call(
  base: string,
  requestPath: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Answer; error?: string }> {
  try {
    const response = await fetch(`${base}${requestPath}`, {
      ...init,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await response.text()
    let body: Answer = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: response.status, body }
  } catch (error) {
    return {
      status: 0,
      body: null,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }
  }
}

export const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 23)}] ${message}`)
