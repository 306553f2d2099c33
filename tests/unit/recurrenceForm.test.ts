import { describe, expect, it } from 'vitest'
import {
  defaultForm,
  formFromText,
  startFacts,
  textFromForm,
  type RecurrenceForm,
  type StartFacts,
} from '../../src/calendar/recurrenceForm'

/** Tuesday 9 June 2026, the 2nd Tuesday of its month. */
const TUESDAY: StartFacts = { weekday: 'TU', monthDay: 9, position: 2 }

describe('the recurrence form', () => {
  it('takes its defaults from the start on its wall clock', () => {
    // 23:30 UTC on Monday 29 June is already Tuesday 30 June in Paris: the 5th Tuesday, so the last.
    expect(startFacts(new Date('2026-06-29T23:30:00Z'), 'Europe/Paris')).toEqual({
      weekday: 'TU',
      monthDay: 30,
      position: -1,
    })
    expect(startFacts(new Date('2026-06-29T23:30:00Z'), 'UTC')).toEqual({
      weekday: 'MO',
      monthDay: 29,
      position: -1,
    })
    expect(startFacts(new Date('2026-06-09T10:00:00Z'), 'UTC-3')).toEqual(TUESDAY)
    expect(textFromForm(defaultForm('WEEKLY', TUESDAY))).toBe('RRULE:FREQ=WEEKLY;BYDAY=TU')
    expect(textFromForm(defaultForm('MONTHLY', TUESDAY))).toBe('RRULE:FREQ=MONTHLY;BYMONTHDAY=9')
    expect(textFromForm({ ...defaultForm('MONTHLY', TUESDAY), monthly: 'position' })).toBe(
      'RRULE:FREQ=MONTHLY;BYDAY=2TU',
    )
  })

  it('writes interval, weekdays in week order, the end, extra and excluded dates', () => {
    const form: RecurrenceForm = {
      ...defaultForm('WEEKLY', TUESDAY),
      interval: 2,
      weekdays: ['TH', 'TU'],
      end: 'count',
      count: 6,
      rdates: ['20261224'],
      exdates: ['20261201', '20261208T190000'],
    }
    expect(textFromForm(form)).toBe(
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6\nRDATE:20261224\nEXDATE:20261201,20261208T190000',
    )
    expect(
      textFromForm({ ...defaultForm('DAILY', TUESDAY), end: 'until', until: '20270630' }),
    ).toBe('RRULE:FREQ=DAILY;UNTIL=20270630')
  })

  it('writes an unfinished number as it is, for the save to refuse', () => {
    expect(textFromForm({ ...defaultForm('DAILY', TUESDAY), end: 'count', count: 0 })).toBe(
      'RRULE:FREQ=DAILY;COUNT=0',
    )
  })

  it('reads back what it writes', () => {
    for (const text of [
      'RRULE:FREQ=DAILY',
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;COUNT=12',
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231T235959Z',
      'RRULE:FREQ=MONTHLY;BYDAY=-1FR',
      'RRULE:FREQ=YEARLY;INTERVAL=4\nRDATE:20280229\nEXDATE:20300101T120000,20310101',
    ]) {
      const form = formFromText(text, TUESDAY)
      expect(form, text).not.toBeNull()
      expect(textFromForm(form!)).toBe(text)
    }
  })

  it('reads the forms other doors write: BYSETPOS, several EXDATE lines, an implicit day', () => {
    expect(formFromText('RRULE:FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2', TUESDAY)).toMatchObject({
      monthly: 'position',
      position: 2,
      positionWeekday: 'TU',
    })
    expect(
      formFromText('RRULE:FREQ=WEEKLY\nEXDATE:20261201T190000\nEXDATE:20261208T190000', TUESDAY),
    ).toMatchObject({
      weekdays: [],
      exdates: ['20261201T190000', '20261208T190000'],
    })
    expect(formFromText('RRULE:FREQ=MONTHLY', TUESDAY)).toMatchObject({
      monthly: 'day',
      monthDay: 9,
    })
  })

  it('has no form for rules it cannot show', () => {
    for (const text of [
      '',
      'RRULE:FREQ=WEEKLY\nRRULE:FREQ=MONTHLY',
      'RRULE:FREQ=YEARLY;BYMONTH=7',
      'RRULE:FREQ=WEEKLY;WKST=SU',
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15',
      'RRULE:FREQ=MONTHLY;BYDAY=2TU,4TU',
      'RRULE:FREQ=MONTHLY;BYDAY=5TU',
      'RRULE:FREQ=DAILY;BYDAY=MO',
      'RRULE:FREQ=DAILY;COUNT=0',
      'RRULE:FREQ=DAILY;UNTIL=tomorrow',
      'RRULE:FREQ=HOURLY',
      'not a rule',
    ]) {
      expect(formFromText(text, TUESDAY), text).toBeNull()
    }
  })
})
