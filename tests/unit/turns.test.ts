import { describe, expect, it } from 'vitest'
import { Turns } from '../../src/server/turns'

/** A piece of work that runs until it is told to end. */
function held(log: string[], name: string) {
  let end!: () => void
  const ended = new Promise<void>((resolve) => (end = resolve))
  const work = async () => {
    log.push(`start ${name}`)
    await ended
    log.push(`end ${name}`)
    return name
  }
  return { work, end }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('turns', () => {
  it('runs at most its size at once, the others in the order they came', async () => {
    const turns = new Turns(2)
    const log: string[] = []
    const pieces = ['a', 'b', 'c', 'd'].map((name) => held(log, name))
    const results = pieces.map((piece) => turns.run(piece.work))
    await settle()
    expect(log).toEqual(['start a', 'start b'])
    pieces[1]!.end()
    await settle()
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c'])
    pieces[0]!.end()
    await settle()
    expect(log.slice(4)).toEqual(['end a', 'start d'])
    pieces[2]!.end()
    pieces[3]!.end()
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('gives the turn of a failed piece to the next one', async () => {
    const turns = new Turns(1)
    const failed = turns.run(async () => {
      throw new Error('lost')
    })
    const next = turns.run(async () => 'next')
    await expect(failed).rejects.toThrow('lost')
    expect(await next).toBe('next')
    expect(await turns.run(async () => 'after')).toBe('after')
  })
})
