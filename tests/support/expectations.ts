/** Assertions on the namespace's answers, shared by every suite (docs/api.md §11). */
import { expect } from 'vitest'
import type { Reply } from './api'

/** The error envelope: a code, a message, and `data.status` equal to the HTTP status. */
export function expectEnvelope(reply: Reply, where = ''): void {
  const body = reply.body as { code?: unknown; message?: unknown; data?: { status?: unknown } }
  expect(typeof body?.code, `error code: ${where}`).toBe('string')
  expect(typeof body?.message, `error message: ${where}`).toBe('string')
  expect(String(body.message).length, `error message: ${where}`).toBeGreaterThan(0)
  expect(body.data?.status, `data.status = HTTP status: ${where}`).toBe(reply.status)
}

/** An error answer of this status and code, in the namespace's envelope. */
export function expectError(reply: Reply, status: number, code: string): void {
  expect(
    { status: reply.status, code: (reply.body as { code?: string })?.code },
    JSON.stringify(reply.body),
  ).toEqual({ status, code })
  expectEnvelope(reply)
}

/** A 400 `rest_invalid_param` naming `param` in `data.params`, and in `data.details` as WordPress does. */
export function expectInvalidParam(reply: Reply, param: string): void {
  expectError(reply, 400, 'rest_invalid_param')
  expect(Object.keys(reply.body.data.params ?? {}), JSON.stringify(reply.body)).toContain(param)
  expect(reply.body.data.details?.[param]).toEqual({
    code: 'rest_invalid_param',
    message: reply.body.data.params[param],
    data: { param },
  })
}

/** A 400 `rest_missing_callback_param` listing exactly `names` (any order). */
export function expectMissing(reply: Reply, names: string[]): void {
  expectError(reply, 400, 'rest_missing_callback_param')
  expect([...(reply.body.data.params as string[])].sort(), JSON.stringify(reply.body)).toEqual(
    [...names].sort(),
  )
}
