/** Reading CSV rows into import items (src/imports/sources/csv.ts, docs/api.md §23.3), without a database. */
import { describe, expect, it } from 'vitest'
import type { ImportSource, SourceItem, UnreadableItem } from '../../src/imports/items'
import { CsvFileError, csvSource } from '../../src/imports/sources/csv'

async function itemsOf(source: ImportSource): Promise<(SourceItem | UnreadableItem)[]> {
  const items = []
  for await (const item of source.items()) items.push(item)
  return items
}

const eventData = (item: SourceItem | UnreadableItem) =>
  (item as Extract<SourceItem, { kind: 'event' }>).data

describe('the CSV source', () => {
  it('recognises the kind of a file by its name column, whatever the headers’ case', async () => {
    const source = csvSource('\uFEFFvenue name,VENUE CITY,Unknown\nHall,Lyon,x\n')
    expect(source.totals).toEqual({ venue: 1 })
    const [item] = await itemsOf(source)
    expect(item).toMatchObject({
      kind: 'venue',
      label: 'row 2',
      sourceId: 'hall',
      data: { name: 'Hall', city: 'Lyon' },
    })
    expect(() => csvSource('Title,Start\nA,B\n')).toThrow(CsvFileError)
    expect(() => csvSource('Venue Name\nHall\n', 'events')).toThrow(/Event Name/)
    expect(() => csvSource('Event Name\n"unclosed\n')).toThrow(/Not a readable CSV file/)
  })

  it('reads the ends of events as upstream and keeps them after the start', async () => {
    const items = await itemsOf(
      csvSource(
        [
          'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event',
          'No end,2031-01-05,10:00,,,',
          'End date only,2031-01-05,10:00,2031-01-07,,',
          'End time only,2031-01-05,10:00,,12:15,',
          'Before the start,2031-01-05,10:00,2031-01-04,09:00,',
          'All day,2031-01-05,10:00,2031-01-06,08:00,yes',
        ].join('\n'),
      ),
    )
    expect(items.map((item) => [eventData(item).start, eventData(item).end])).toEqual([
      ['2031-01-05 10:00:00', '2031-01-05 10:00:00'],
      ['2031-01-05 10:00:00', '2031-01-07 00:00:00'],
      ['2031-01-05 10:00:00', '2031-01-05 12:15:00'],
      ['2031-01-05 10:00:00', '2031-01-05 10:00:00'],
      ['2031-01-05 00:00:00', '2031-01-06 23:59:59'],
    ])
  })

  it('leaves out what a file has no column for and clears what an empty cell says', async () => {
    const [partial] = await itemsOf(csvSource('Event Name,Event Start Date\nA,2031-01-05\n'))
    expect(eventData(partial!)).toEqual({
      title: 'A',
      start: '2031-01-05 00:00:00',
      end: '2031-01-05 00:00:00',
    })
    const [empty] = await itemsOf(
      csvSource(
        'Event Name,Event Start Date,Event Venue Name,Event Tags,Timezone,Event Featured\nA,2031-01-05,,,,\n',
      ),
    )
    expect(eventData(empty!)).toMatchObject({
      venue: null,
      tags: [],
      timezone: null,
      featured: false,
    })
  })

  it('knows an event by its UID, else by its name and start, and reports a second row of the same event', async () => {
    const items = await itemsOf(
      csvSource(
        [
          'Event UID,Event Name,Event Start Date,Event Start Time',
          'uid-1,Concert,2031-01-05,20:00',
          ',Concert,2031-01-05,20:00',
          ',concert ,01/05/2031,8 pm',
          'uid-1,Other,2031-02-01,10:00',
        ].join('\n'),
      ),
    )
    expect(items[0]).toMatchObject({ sourceId: 'uid-1' })
    expect(items[1]).toMatchObject({ sourceId: expect.stringMatching(/^[0-9a-f]{32}$/) })
    expect(items[2]).toEqual({
      kind: 'event',
      label: 'row 4',
      error: expect.stringContaining('the same event as row 3'),
    })
    expect(items[3]).toEqual({
      kind: 'event',
      label: 'row 5',
      error: expect.stringContaining('the same event as row 2'),
    })
  })

  it('reports every problem of a row at once, naming its columns', async () => {
    const [item] = await itemsOf(
      csvSource(
        'Event Name,Event Start Date,Event End Time,Timezone\n,2031-13-01,7 xm,Mars/Base\n',
      ),
    )
    expect(item).toEqual({
      kind: 'event',
      label: 'row 2',
      error:
        'Event Name is empty; Event Start Date is not a date: "2031-13-01" (YYYY-MM-DD, MM/DD/YYYY or DD-MM-YYYY); Event End Time is not a time: "7 xm" (18:30, 18:30:00 or 6:30 pm); Timezone is not a known time zone: "Mars/Base"',
    })
  })
})
