/** Request ids (docs/operations.md, "Request ids"): which ids a caller may give, and how they reach pino's lines. */
import { Writable } from 'node:stream'
import { setTimeout as wait } from 'node:timers/promises'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { requestIdFor, requestLogFields, withRequestId } from '../../src/rest/requestId'

describe('request ids', () => {
  it('keep a short safe token and replace anything else', () => {
    expect(requestIdFor('edge-7f3a.01:2_b')).toBe('edge-7f3a.01:2_b')
    for (const given of [undefined, '', 'a b', 'x'.repeat(65), 'id"}', 'a\nb', ['one', 'two']]) expect(requestIdFor(given)).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('are in every line pino writes while the request runs, across awaits, and in none outside', async () => {
    const lines: Record<string, unknown>[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    })
    const logger = pino({ mixin: requestLogFields }, sink)
    await Promise.all([
      withRequestId('first', async () => {
        await wait(5)
        logger.info('one')
      }),
      withRequestId('second', async () => {
        logger.info('two')
        await wait(10)
        logger.warn('three')
      }),
    ])
    logger.info('outside')
    await wait(5)
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ['two', 'second'],
      ['one', 'first'],
      ['three', 'second'],
      ['outside', undefined],
    ])
  })
})
