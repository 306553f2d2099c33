/** The cells of the CSV import and export (src/calendar/csvColumns.ts, docs/api.md §23.3). */
import { describe, expect, it } from 'vitest'
import {
  csvHeaders,
  csvRow,
  readCsvBoolean,
  readCsvDate,
  readCsvList,
  readCsvTime,
  readCurrencyPosition,
  writeCurrencyPosition,
} from '../../src/calendar/csvColumns'

describe('CSV cells', () => {
  it('read dates as upstream: ISO, month first with slashes, day first with hyphens', () => {
    expect(readCsvDate('2026-03-15')).toBe('2026-03-15')
    expect(readCsvDate('03/15/2026')).toBe('2026-03-15')
    expect(readCsvDate('3/5/2026')).toBe('2026-03-05')
    expect(readCsvDate('15-03-2026')).toBe('2026-03-15')
    expect(readCsvDate(' 2026-3-5 ')).toBe('2026-03-05')
    for (const bad of [
      '',
      '2026-02-30',
      '15/03/2026',
      '03-15-2026',
      '2026/03/15',
      'tomorrow',
      '2026-03-15 10:00',
    ])
      expect(readCsvDate(bad), bad).toBeNull()
  })

  it('read 24-hour and 12-hour times', () => {
    expect(readCsvTime('18:30')).toBe('18:30:00')
    expect(readCsvTime('8:05:09')).toBe('08:05:09')
    expect(readCsvTime('6:30 pm')).toBe('18:30:00')
    expect(readCsvTime('6PM')).toBe('18:00:00')
    expect(readCsvTime('12:15 a.m.')).toBe('00:15:00')
    expect(readCsvTime('12 pm')).toBe('12:00:00')
    for (const bad of ['', '24:00', '18:60', '13 pm', '0 am', 'noon', '18h30'])
      expect(readCsvTime(bad), bad).toBeNull()
  })

  it('read booleans, lists and currency positions as upstream', () => {
    for (const yes of ['yes', 'TRUE', '1', ' Yes ']) expect(readCsvBoolean(yes), yes).toBe(true)
    for (const no of ['no', 'FALSE', '0', '', 'on']) expect(readCsvBoolean(no), no).toBe(false)
    expect(readCsvList(' Music,  Jazz ,,Music ')).toEqual(['Music', 'Jazz'])
    expect(readCurrencyPosition('suffix')).toBe('postfix')
    expect(readCurrencyPosition('After')).toBe('postfix')
    expect(readCurrencyPosition('prefix')).toBe('prefix')
    expect(readCurrencyPosition('anything')).toBe('prefix')
    expect(readCurrencyPosition('')).toBe('')
    expect(writeCurrencyPosition(readCurrencyPosition(writeCurrencyPosition('postfix')))).toBe(
      'suffix',
    )
  })

  it('write rows in the order of the headers', () => {
    const headers = csvHeaders('venues')
    expect(headers[0]).toBe('Venue Name')
    const row = csvRow('venues', { city: 'Lyon', name: 'Hall' })
    expect(row).toHaveLength(headers.length)
    expect(row[headers.indexOf('Venue City')]).toBe('Lyon')
    expect(row[0]).toBe('Hall')
  })
})
