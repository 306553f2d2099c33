import { describe, expect, it } from 'vitest'
import { recurrenceSummary, SUMMARY_LANGUAGES } from '../../src/calendar/recurrenceSummary'

const TUESDAYS_AND_THURSDAYS = 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=20270630'

describe('recurrenceSummary in English', () => {
  it('says how often, on which weekdays and until when', () => {
    expect(recurrenceSummary(TUESDAYS_AND_THURSDAYS, 'en')).toBe(
      'Every 2 weeks on Tuesday and Thursday, until June 30, 2027',
    )
    expect(recurrenceSummary(TUESDAYS_AND_THURSDAYS, 'en-GB')).toBe(
      'Every 2 weeks on Tuesday and Thursday, until 30 June 2027',
    )
  })

  it('names every frequency, singular and plural', () => {
    expect(recurrenceSummary('RRULE:FREQ=DAILY', 'en')).toBe('Every day')
    expect(recurrenceSummary('RRULE:FREQ=DAILY;INTERVAL=3', 'en')).toBe('Every 3 days')
    expect(recurrenceSummary('RRULE:FREQ=WEEKLY', 'en')).toBe('Every week')
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;INTERVAL=2', 'en')).toBe('Every 2 months')
    expect(recurrenceSummary('RRULE:FREQ=YEARLY', 'en')).toBe('Every year')
  })

  it('counts occurrences', () => {
    expect(recurrenceSummary('RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10', 'en')).toBe(
      'Every week on Monday, Wednesday, and Friday, 10 times',
    )
    expect(recurrenceSummary('RRULE:FREQ=DAILY;COUNT=1', 'en')).toBe('Every day, once')
  })

  it('reads weekdays by position, as BYDAY ordinals or BYSETPOS', () => {
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=2TU', 'en')).toBe(
      'Every month on the 2nd Tuesday',
    )
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1', 'en')).toBe(
      'Every month on the last Friday',
    )
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=1MO,3MO,-2SU', 'en-GB')).toBe(
      'Every month on the 1st Monday, the 3rd Monday and the 2nd to last Sunday',
    )
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', 'en')).toBe(
      'Every year on the 4th Thursday in November',
    )
  })

  it('reads days of the month, the last one included, and one day of a year as a date', () => {
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYMONTHDAY=1,22,-1', 'en-GB')).toBe(
      'Every month on the 1st, 22nd and last day',
    )
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=14', 'en-GB')).toBe(
      'Every year on 14 July',
    )
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYMONTH=6,12', 'en-GB')).toBe(
      'Every year in June and December',
    )
  })

  it('lists extra and excluded dates', () => {
    const text = 'RRULE:FREQ=WEEKLY;COUNT=5\nRDATE:20261224\nEXDATE;VALUE=DATE:20261208,20261215'
    expect(recurrenceSummary(text, 'en-GB')).toBe(
      'Every week, 5 times; also on 24 December 2026; except 8 December 2026 and 15 December 2026',
    )
  })

  it('shows the time of a date that has one, and puts UTC dates in the event zone', () => {
    // 23:59:59 ends a whole day; the UNTIL of a split series (one second before an occurrence) does not.
    expect(recurrenceSummary('RRULE:FREQ=DAILY;UNTIL=20270104T235959', 'en-GB')).toBe(
      'Every day, until 4 January 2027',
    )
    expect(recurrenceSummary('RRULE:FREQ=DAILY;UNTIL=20270104T185959', 'en-GB')).toBe(
      'Every day, until 4 January 2027 at 18:59',
    )
    expect(
      recurrenceSummary('RRULE:FREQ=DAILY;UNTIL=20270630T215959Z', 'en-GB', 'Europe/Paris'),
    ).toBe('Every day, until 30 June 2027')
    expect(recurrenceSummary('RRULE:FREQ=DAILY;UNTIL=20270630T215959Z', 'en-GB', 'UTC+5')).toBe(
      'Every day, until 1 July 2027 at 02:59',
    )
    expect(
      recurrenceSummary('RRULE:FREQ=DAILY\nEXDATE:20261225T180000Z', 'en-GB', 'Europe/Paris'),
    ).toBe('Every day; except 25 December 2026 at 19:00')
  })

  it('names the parts it does not describe rather than hiding them', () => {
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO', 'en')).toBe(
      'Every year on Monday (rule parts not described: BYWEEKNO=20)',
    )
    expect(recurrenceSummary('RRULE:FREQ=WEEKLY;WKST=SU;BYDAY=SU', 'en')).toBe(
      'Every week on Sunday',
    )
  })

  it('joins several rules', () => {
    expect(
      recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=1MO\nRRULE:FREQ=MONTHLY;BYDAY=3WE', 'en'),
    ).toBe('Every month on the 1st Monday; Every month on the 3rd Wednesday')
  })

  it('is null for text it cannot read', () => {
    expect(recurrenceSummary('', 'en')).toBeNull()
    expect(recurrenceSummary('RDATE:20261224', 'en')).toBeNull()
    expect(recurrenceSummary('DTSTART:20261224', 'en')).toBeNull()
    expect(recurrenceSummary('RRULE:FREQ=HOURLY', 'en')).toBeNull()
    expect(recurrenceSummary('RRULE:COUNT=3', 'en')).toBeNull()
  })
})

describe('recurrenceSummary in other languages', () => {
  it('has French and German sentence frames', () => {
    expect(SUMMARY_LANGUAGES).toEqual(expect.arrayContaining(['en', 'fr', 'de']))
  })

  it('writes French', () => {
    expect(recurrenceSummary(TUESDAYS_AND_THURSDAYS, 'fr')).toBe(
      'Toutes les 2 semaines le mardi et le jeudi, jusqu’au 30 juin 2027',
    )
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=6', 'fr')).toBe(
      'Tous les mois le 2e mardi, 6 fois',
    )
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=-1FR', 'fr')).toBe(
      'Tous les mois le dernier vendredi',
    )
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15', 'fr')).toBe(
      'Tous les mois le 1er et le 15',
    )
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=14', 'fr-CA')).toBe(
      'Tous les ans le 14 juillet',
    )
    expect(recurrenceSummary('RRULE:FREQ=DAILY\nEXDATE:20261225,20270101', 'fr')).toBe(
      'Tous les jours; sauf le 25 décembre 2026 et le 1 janvier 2027',
    )
  })

  it('writes German', () => {
    expect(recurrenceSummary(TUESDAYS_AND_THURSDAYS, 'de')).toBe(
      'Alle 2 Wochen am Dienstag und Donnerstag, bis zum 30. Juni 2027',
    )
    expect(recurrenceSummary('RRULE:FREQ=WEEKLY;COUNT=1', 'de')).toBe('Wöchentlich, einmal')
    expect(recurrenceSummary('RRULE:FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=12', 'de')).toBe(
      'Monatlich am letzten Freitag, 12-mal',
    )
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', 'de-AT')).toBe(
      'Jährlich am 4. Donnerstag im November',
    )
  })

  it('keeps English frames for other languages, with their own weekday, month and date names', () => {
    expect(recurrenceSummary(TUESDAYS_AND_THURSDAYS, 'es')).toBe(
      'Every 2 weeks on martes and jueves, until 30 de junio de 2027',
    )
    expect(recurrenceSummary('RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', 'it')).toBe(
      'Every year on the 4th giovedì in novembre',
    )
  })

  it('reads a language code Intl does not know as English', () => {
    expect(recurrenceSummary(TUESDAYS_AND_THURSDAYS, 'not a locale')).toBe(
      'Every 2 weeks on Tuesday and Thursday, until June 30, 2027',
    )
  })
})
