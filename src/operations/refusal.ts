/**
 * An operation's refusal of what it was asked (a parameter, a record the caller may not read, a
 * password tried too often): a code and an HTTP-style status, which each door renders in its own
 * format (the namespace as its error envelope, `server/errors.ts`).
 */
export class Refusal extends Error {
  readonly code: string
  readonly status: number
  /** Extra keys of the envelope's `data`; `status` always comes from `status`, so it cannot be set here. */
  readonly data: Record<string, unknown>
  /** Headers the answer carries besides the namespace's (`Retry-After` of a 409 or 429). */
  headers: Record<string, string> = {}

  constructor(
    code: string,
    message: string,
    status: number,
    extraData: Record<string, unknown> & { status?: never } = {},
  ) {
    super(message)
    this.name = 'Refusal'
    this.code = code
    this.status = status
    this.data = extraData
  }

  /**
   * `params` maps each rejected parameter to the reason, e.g. `{ page: 'Must be a positive integer.' }`;
   * `details` repeats each as the error object WordPress nests there, for clients that read that one.
   */
  static invalidParams(params: Record<string, string>): Refusal {
    const details = Object.fromEntries(
      Object.entries(params).map(([param, message]) => [
        param,
        { code: 'rest_invalid_param', message, data: { param } },
      ]),
    )
    return new Refusal(
      'rest_invalid_param',
      `Invalid parameter(s): ${Object.keys(params).join(', ')}`,
      400,
      { params, details },
    )
  }
}
