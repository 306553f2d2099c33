/** Request ids (docs/operations.md, "Request ids"): which ids a caller may give, and how they reach pino's lines. */
import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { requestIdFor, requestLogFields, withRequestId } from '../../src/server/requestId'

describe('request ids', () => {
  it('keep a short safe token and replace anything else', () => {
    expect(requestIdFor('edge-7f3a.01:2_b')).toBe('edge-7f3a.01:2_b')
    for (const given of [undefined, '', 'a b', 'x'.repeat(65), 'id"}', 'a\nb', ['one', 'two']])
      expect(requestIdFor(given)).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('are in every line pino writes while the request runs, across awaits, and in none outside it or after it ended', async () => {
    const lines: Record<string, unknown>[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    })
    const logger = pino({ mixin: requestLogFields }, sink)
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let endAll = () => {}
    const allEnded = new Promise<void>((resolve) => (endAll = resolve))
    const pending: Promise<void>[] = []
    const first = withRequestId('first', () => {
      pending.push(released.then(() => logger.info('one')))
      // Work the request leaves behind (as Payload's start-up does) runs on after it ended.
      pending.push(allEnded.then(() => logger.info('left behind')))
    })
    const second = withRequestId('second', () => {
      logger.info('two')
      pending.push(released.then(() => logger.warn('three')))
    })
    release()
    await Promise.all(pending.slice(0, 1).concat(pending.slice(2)))
    first()
    second()
    logger.info('outside')
    endAll()
    await Promise.all(pending)
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ['two', 'second'],
      ['one', 'first'],
      ['three', 'second'],
      ['outside', undefined],
      ['left behind', undefined],
    ])
  })
})
