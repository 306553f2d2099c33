import { describe, expect, it } from 'vitest'
import {
  calendarPeriod,
  daysCovered,
  placeEvents,
  readDay,
  shiftPeriod,
  weekStart,
} from '../../src/calendar/calendarGrid'
import { calendarSearch, readCalendarQuery } from '../../src/components/calendarQuery'

describe('the admin calendar’s grids', () => {
  it('shows whole weeks, Monday to Sunday, around a month or a week', () => {
    // March 2027 begins on a Monday and ends on a Wednesday.
    const march = calendarPeriod('month', '2027-03-17')
    expect([march.first, march.last, march.weeks.length]).toEqual(['2027-03-01', '2027-04-04', 5])
    expect(march.weeks.every((week) => week.length === 7)).toBe(true)
    // February 2026: Sunday the 1st to Saturday the 28th; November 2026 runs from a Sunday to a Monday: six rows.
    const february = calendarPeriod('month', '2026-02-01')
    expect([february.first, february.last, february.weeks.length]).toEqual([
      '2026-01-26',
      '2026-03-01',
      5,
    ])
    expect(calendarPeriod('month', '2026-11-30').weeks.length).toBe(6)
    expect(calendarPeriod('week', '2027-03-07')).toEqual({
      first: '2027-03-01',
      last: '2027-03-07',
      weeks: [
        [
          '2027-03-01',
          '2027-03-02',
          '2027-03-03',
          '2027-03-04',
          '2027-03-05',
          '2027-03-06',
          '2027-03-07',
        ],
      ],
    })
    expect(weekStart('2024-01-01')).toBe('2024-01-01')
  })

  it('moves by a month to its first day, by a week to the same weekday', () => {
    expect(shiftPeriod('month', '2027-01-31', 1)).toBe('2027-02-01')
    expect(shiftPeriod('month', '2027-01-15', -1)).toBe('2026-12-01')
    expect(shiftPeriod('week', '2027-12-29', 1)).toBe('2028-01-05')
  })

  it('ends with 9999-12-31, a Friday, and moves no further than a day can be named', () => {
    const december = calendarPeriod('month', '9999-12-15')
    expect([december.first, december.last, december.weeks.length]).toEqual([
      '9999-11-29',
      '9999-12-31',
      5,
    ])
    expect(december.weeks.at(-1)).toEqual([
      '9999-12-27',
      '9999-12-28',
      '9999-12-29',
      '9999-12-30',
      '9999-12-31',
    ])
    expect(calendarPeriod('week', '9999-12-31').last).toBe('9999-12-31')
    const placed = placeEvents(
      [{ startLocal: '9999-12-30 10:00:00', endLocal: '9999-12-31 23:00:00' }],
      december,
    )
    expect([placed.get('9999-12-30')!.length, placed.get('9999-12-31')!.length]).toEqual([1, 1])
    expect(shiftPeriod('month', '9999-12-15', 1)).toBeNull()
    expect(shiftPeriod('month', '9999-12-15', -1)).toBe('9999-11-01')
    expect(shiftPeriod('week', '9999-12-27', 1)).toBeNull()
    expect(shiftPeriod('week', '9999-12-24', 1)).toBe('9999-12-31')
    expect(shiftPeriod('month', '1000-01-15', -1)).toBeNull()
  })

  it('reads only real days', () => {
    expect(readDay('2028-02-29')).toBe('2028-02-29')
    for (const bad of [
      '2027-02-29',
      '2027-13-01',
      '2027-3-1',
      '27-03-01',
      '',
      null,
      '2027-03-01T00:00',
      '0999-12-31',
    ])
      expect(readDay(bad)).toBeNull()
  })

  it('covers the wall-clock days of an event, an end at midnight closing the day before', () => {
    expect(daysCovered('2027-03-05 22:00:00', '2027-03-06 00:00:00')).toEqual({
      first: '2027-03-05',
      last: '2027-03-05',
    })
    expect(daysCovered('2027-03-05 22:00:00', '2027-03-06 00:30:00')).toEqual({
      first: '2027-03-05',
      last: '2027-03-06',
    })
    expect(daysCovered('2027-03-05 00:00:00', '2027-03-05 00:00:00')).toEqual({
      first: '2027-03-05',
      last: '2027-03-05',
    })
    expect(daysCovered('2027-03-05 00:00:00', '2027-03-07 23:59:59')).toEqual({
      first: '2027-03-05',
      last: '2027-03-07',
    })
    expect(daysCovered('2027-03-05 10:00:00', '2027-03-04 10:00:00')).toEqual({
      first: '2027-03-05',
      last: '2027-03-05',
    })
    expect(daysCovered('garbage', '2027-03-04 10:00:00')).toBeNull()
  })

  it('places events on every shown day they cover, all-day ones first, then by start', () => {
    const week = calendarPeriod('week', '2027-03-03')
    const events = [
      { id: 'evening', startLocal: '2027-03-02 19:00:00', endLocal: '2027-03-02 21:00:00' },
      { id: 'morning', startLocal: '2027-03-02 09:00:00', endLocal: '2027-03-02 10:00:00' },
      {
        id: 'festival',
        startLocal: '2027-03-02 00:00:00',
        endLocal: '2027-03-03 23:59:59',
        allDay: true,
      },
      // Began the week before, ends on Monday: shown on Monday only, as continued.
      { id: 'exhibition', startLocal: '2027-01-10 10:00:00', endLocal: '2027-03-01 18:00:00' },
      { id: 'next week', startLocal: '2027-03-08 10:00:00', endLocal: '2027-03-08 11:00:00' },
    ]
    const placed = placeEvents(events, week)
    const ids = (day: string) =>
      placed.get(day)!.map(({ event, continued }) => `${event.id}${continued ? '…' : ''}`)
    expect(ids('2027-03-01')).toEqual(['exhibition…'])
    expect(ids('2027-03-02')).toEqual(['festival', 'morning', 'evening'])
    expect(ids('2027-03-03')).toEqual(['festival…'])
    expect(ids('2027-03-07')).toEqual([])
    expect([...placed.keys()]).toEqual(week.weeks[0])
  })
})

describe('the calendar’s address', () => {
  const read = (search: string) => readCalendarQuery(new URLSearchParams(search), '2027-03-17')

  it('reads the view, the day and the filters, falling back to this month unfiltered', () => {
    expect(read('view=week&date=2027-05-04&category=12&venue=3&organizer=9&status=draft')).toEqual({
      view: 'week',
      date: '2027-05-04',
      category: '12',
      venue: '3',
      organizer: '9',
      status: 'draft',
    })
    expect(read('view=year&date=2027-02-30&category=music&venue=')).toEqual({
      view: 'month',
      date: '2027-03-17',
      category: null,
      venue: null,
      organizer: null,
      status: null,
    })
  })

  it('writes them back, keeping the language and dropping empty filters', () => {
    const search = calendarSearch(
      { ...read('category=4'), view: 'week', category: null, venue: '7' },
      new URLSearchParams('locale=fr&category=4'),
    )
    expect(search).toBe('locale=fr&view=week&date=2027-03-17&venue=7')
    expect(read(search)).toMatchObject({ view: 'week', venue: '7', category: null })
  })
})
