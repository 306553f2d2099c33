/** The core's rules for content that other programs act on: CSV cells (docs/api.md §23.3, §23.4) and web URLs (docs/api.md §6.6). */
import { describe, expect, it } from 'vitest'
import { readCsvCell, writeCsvCell } from '../../src/calendar/csvColumns'
import { servedWebUrl, webUrl } from '../../src/calendar/webUrl'

describe('CSV cells', () => {
  const neutralised = [
    '=1+1',
    '+1+1',
    '-1+1',
    '@SUM(A1)',
    '\tcmd',
    '\rcmd',
    "'=1",
    "''+x",
    "'-5",
    '-',
    '+',
  ]
  const asTheyAre = [
    '-5',
    '-3.7',
    '+2',
    '.5',
    '12',
    'plain',
    "it's",
    "'quoted",
    '',
    ' =1',
    'UTC+2',
    '2030-01-01',
  ]

  it('puts one quote before what a spreadsheet would run, and leaves plain numbers and other text', () => {
    for (const cell of neutralised)
      expect(writeCsvCell(cell), JSON.stringify(cell)).toBe(`'${cell}`)
    for (const cell of asTheyAre) expect(writeCsvCell(cell), JSON.stringify(cell)).toBe(cell)
  })

  it('reads back exactly what it wrote', () => {
    for (const cell of [...neutralised, ...asTheyAre])
      expect(readCsvCell(writeCsvCell(cell)), JSON.stringify(cell)).toBe(cell)
  })
})

describe('web URLs', () => {
  it('are absolute http(s) URLs with a host, trimmed', () => {
    expect(webUrl(' https://example.org/a?b=1 ')).toBe('https://example.org/a?b=1')
    expect(webUrl('HTTP://EXAMPLE.ORG')).toBe('HTTP://EXAMPLE.ORG')
    for (const value of [
      'javascript:alert(1)',
      'java\tscript:alert(1)',
      'message:%3Cx%3E',
      'example.org',
      'http:example.org',
      'https:/x',
      'https://',
      'ftp://example.org/',
      '',
    ])
      expect(webUrl(value), value).toBeNull()
  })

  it('serve as empty when they are not', () => {
    expect(servedWebUrl('javascript:alert(1)')).toBe('')
    expect(servedWebUrl(null)).toBe('')
    expect(servedWebUrl('https://example.org/')).toBe('https://example.org/')
  })
})
