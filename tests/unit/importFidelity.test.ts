/**
 * What a site's answers and an iCalendar file become, without a database (docs/api.md §23.5, §23.6):
 * costs as written and shown, RDATE-only series, and which items are known by name.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { icalSource, RDATES_ONLY } from '../../src/imports/sources/ical'
import { costValues, eventItem, shownCurrency } from '../../src/imports/sources/siteItems'

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '..', 'fixtures', name), 'utf8')

describe('a site event’s cost', () => {
  it.each([
    [['free'], 'Free', ['Free']],
    [['donation'], 'Donation', ['Donation']],
    [['members-guests'], 'Members, guests', ['Members, guests']],
    [
      ['donation', 'pay-what-you-can'],
      'Donation, Pay what you can',
      ['Donation', 'Pay what you can'],
    ],
    [['0', '20'], 'Free – 20€', ['0', '20']],
    // A word beside amounts is not in the text: its slug is all there is.
    [['free', '20'], '$20', ['free', '20']],
    [[], '', []],
  ])('values %j shown as %j are %j', (values, text, expected) => {
    expect(costValues(values, text)).toEqual(expected)
  })

  it.each([
    ['25€', { symbol: '€', position: 'postfix' }],
    ['$10 – $20', { symbol: '$', position: 'prefix' }],
    ['Free – 30 CHF', { symbol: 'CHF', position: 'postfix' }],
    ['Free', { symbol: null, position: '' }],
    ['25', { symbol: null, position: '' }],
    ['Donation', { symbol: null, position: '' }],
  ])('the currency shown in %j', (text, expected) => {
    expect(shownCurrency(text)).toEqual(expected)
  })
})

describe('a site event', () => {
  const object = (cost: string, values: string[], symbol = '') => ({
    id: 7,
    title: 'Gala',
    start_date: '2033-06-01 20:00:00',
    end_date: '2033-06-01 23:00:00',
    all_day: false,
    featured: false,
    cost,
    cost_details: { currency_symbol: symbol, currency_position: '', currency_code: '', values },
  })
  const read = (json: Record<string, unknown>) =>
    eventItem(json, { wordpress: false, translations: new Map() }) as any

  it('without a currency of its own takes the one the site showed it with', () => {
    expect(read(object('25€', ['25'])).data).toMatchObject({
      cost: ['25'],
      currencySymbol: '€',
      currencyPosition: 'postfix',
    })
  })

  it('keeps its own symbol, placed as the site placed it', () => {
    expect(read(object('£25', ['25'], '£')).data).toMatchObject({
      currencySymbol: '£',
      currencyPosition: 'prefix',
    })
  })

  it('notes a word beside amounts, which only its slug gives', () => {
    const item = read(object('$20', ['free', '20']))
    expect(item.data.cost).toEqual(['free', '20'])
    expect(item.notes).toEqual([
      'cost "free": the site gives this word beside amounts only as its slug, kept so',
    ])
    expect(read(object('Free', ['free'])).notes).toBeUndefined()
  })
})

describe('iCalendar', () => {
  it('an RDATE-only VEVENT is a series whose rule yields only its first event, the dates adding the rest', async () => {
    const items = []
    for await (const item of icalSource(fixture('rdate-only.ics'), 'ical').items()) items.push(item)
    expect(items).toHaveLength(1)
    expect((items[0] as any).data.recurrence).toBe(
      `${RDATES_ONLY}\nRDATE:20280612T190000,20280626T190000`,
    )
  })

  it('events are known by their UIDs alone; places, people and categories by name', () => {
    expect(icalSource(fixture('exchange-busy.ics'), 'ical').matchByName).toEqual([
      'category',
      'tag',
      'venue',
      'organizer',
    ])
  })
})
