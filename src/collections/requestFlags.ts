import type { PayloadRequest } from 'payload'

/**
 * Runs `work` with `flag` set on the request's context, for the hooks its writes run to read, and
 * takes it off again however `work` ends: the request goes on to other writes the flag is not for.
 */
export async function whileFlagged<T>(
  req: PayloadRequest,
  flag: string,
  work: () => Promise<T>,
): Promise<T> {
  req.context[flag] = true
  try {
    return await work()
  } finally {
    delete req.context[flag]
  }
}
