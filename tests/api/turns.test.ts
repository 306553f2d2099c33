/**
 * Answers made in turns (`ANSWER_CONCURRENCY`, docs/performance.md): an instance that makes one
 * namespace answer at a time still answers every caller of a burst, each with its own answer (the
 * same as an instance with the default makes), errors included, and signed-in callers alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, NS, unique } from '../support/api'
import { createCategory, createEvent, dayAt } from '../support/fixtures'
import { startSecondInstance, type Instance } from '../support/secondInstance'

const EVENTS = 12

let instance: Instance
let admin: string
const fixture = { category: 0, event: 0 }

beforeAll(async () => {
  admin = await asAdmin()
  const category = await createCategory({ name: unique('turns') })
  fixture.category = category.id
  for (let i = 0; i < EVENTS; i++) {
    const event = await createEvent({
      title: `${unique('Turn')} ${i}`,
      start: dayAt(40, i % 24, i),
      categories: [category.id],
    })
    fixture.event = event.id
  }
  instance = await startSecondInstance({ ANSWER_CONCURRENCY: '1', QUERY_COUNT_HEADER: 'true' })
}, 180_000)

afterAll(async () => {
  await instance?.stop()
})

type Asked = { path: string; token?: string }

async function ask(base: string, { path, token }: Asked) {
  const response = await fetch(base + path, {
    headers: token ? { Authorization: `JWT ${token}` } : {},
  })
  // Each instance writes its own address into links and global ids.
  const text = (await response.text()).replaceAll(new URL(base).host, new URL(BASE_URL).host)
  return {
    status: response.status,
    answeredBy: response.headers.get('X-Answered-By'),
    body: JSON.parse(text) as unknown,
  }
}

describe('an instance that makes one answer at a time', () => {
  it('answers a burst of different requests, each with its own answer', async () => {
    const list = `${NS}/events?categories=${fixture.category}&start_date=${dayAt(39).slice(0, 10)}&end_date=${dayAt(42).slice(0, 10)}`
    const asked: Asked[] = [
      ...[1, 2, 3].map((page) => ({ path: `${list}&per_page=4&page=${page}` })),
      ...[1, 2].map((page) => ({ path: `/fr${list}&per_page=5&page=${page}` })),
      { path: `${list}&per_page=4&page=4` },
      { path: `${list}&per_page=nine` },
      { path: `${NS}/events/${fixture.event}` },
      { path: `${NS}/categories/${fixture.category}` },
      { path: `${list}&per_page=3`, token: admin },
    ]
    const expected = await Promise.all(asked.map((one) => ask(BASE_URL, one)))
    expect(expected.map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 404, 400, 200, 200, 200,
    ])

    // Three times each, all at once: more callers than turns, in an order unlike the one asked.
    const burst = [...asked, ...asked.slice().reverse(), ...asked]
    const answers = await Promise.all(burst.map((one) => ask(instance.base, one)))
    answers.forEach((answer, index) => {
      const wanted = expected[asked.indexOf(burst[index]!)]!
      expect(answer.status).toBe(wanted.status)
      expect(answer.body).toEqual(wanted.body)
    })
    // Made by the namespace in turns, not served again by the front door.
    expect(
      answers.filter((answer) => answer.answeredBy === 'namespace').length,
    ).toBeGreaterThanOrEqual(asked.length)

    // The instance has taken every turn back: it still answers.
    expect((await ask(instance.base, asked[0]!)).status).toBe(200)
  })
})
