import { floatingWallClock } from './dates/wallClock'
import {
  readRecurrenceLines,
  readRuleDate,
  WEEKDAYS,
  writeRecurrenceLines,
  type RuleParts,
  type Weekday,
} from './recurrenceText'

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY'
export const FREQUENCIES: Frequency[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']

/**
 * What the admin's recurrence editor shows: the rules it can build. A text with anything more (a
 * second RRULE, BYMONTH, WKST...) has no form and is edited as text.
 */
export type RecurrenceForm = {
  frequency: Frequency
  interval: number
  /** Weekly: the weekdays; none means the start's. */
  weekdays: Weekday[]
  /** Monthly: by day of the month, or by position (the 2nd Tuesday, the last Friday). */
  monthly: 'day' | 'position'
  /** 1..31, or -1 for the last day. */
  monthDay: number
  /** 1..4, or -1 for the last. */
  position: number
  positionWeekday: Weekday
  end: 'never' | 'count' | 'until'
  count: number
  /** A date of the rule as written (`YYYYMMDD`, or with a time when the text had one). */
  until: string
  rdates: string[]
  exdates: string[]
}

/** What a new rule takes from the event's start, on its wall clock: its weekday, its day, its weekday's position. */
export type StartFacts = { weekday: Weekday; monthDay: number; position: number }

export function startFacts(start: Date, zone: string): StartFacts {
  const wall = floatingWallClock(start, zone)
  const monthDay = wall.getUTCDate()
  const position = Math.ceil(monthDay / 7)
  // A fifth weekday is the month's last one; not every month has a fifth.
  return {
    weekday: WEEKDAYS[(wall.getUTCDay() + 6) % 7]!,
    monthDay,
    position: position > 4 ? -1 : position,
  }
}

export function defaultForm(frequency: Frequency, facts: StartFacts): RecurrenceForm {
  return {
    frequency,
    interval: 1,
    weekdays: frequency === 'WEEKLY' ? [facts.weekday] : [],
    monthly: 'day',
    monthDay: facts.monthDay,
    position: facts.position,
    positionWeekday: facts.weekday,
    end: 'never',
    count: 10,
    until: '',
    rdates: [],
    exdates: [],
  }
}

const POSITIVE = /^[1-9]\d*$/
const PARTS_OF: Record<Frequency, string[]> = {
  DAILY: [],
  WEEKLY: ['BYDAY'],
  MONTHLY: ['BYDAY', 'BYMONTHDAY', 'BYSETPOS'],
  YEARLY: [],
}
const BASE_PARTS = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL']

/** Monthly parts as the form has them: one day of the month, or one weekday at one position; none is the start's day. */
function monthlyOf(parts: RuleParts, form: RecurrenceForm): RecurrenceForm | null {
  const monthDay = parts.get('BYMONTHDAY')
  const byday = parts.get('BYDAY')
  const setpos = parts.get('BYSETPOS')
  if (monthDay !== undefined) {
    if (byday !== undefined || setpos !== undefined || !/^(-1|[1-9]|[12]\d|3[01])$/.test(monthDay))
      return null
    return { ...form, monthly: 'day', monthDay: Number(monthDay) }
  }
  if (byday === undefined) return setpos === undefined ? form : null
  const match = /^([+-]?\d)?(MO|TU|WE|TH|FR|SA|SU)$/.exec(
    setpos === undefined ? byday : `${setpos}${byday}`,
  )
  const position = Number(match?.[1])
  if (!match || ![1, 2, 3, 4, -1].includes(position)) return null
  return { ...form, monthly: 'position', position, positionWeekday: match[2] as Weekday }
}

/** The form of a `recurrence` text, or null when the text holds more than the form can show. */
export function formFromText(text: string, facts: StartFacts): RecurrenceForm | null {
  const lines = readRecurrenceLines(text)
  if (!lines || lines.rules.length !== 1) return null
  const parts = lines.rules[0]!
  const frequency = parts.get('FREQ') as Frequency
  if (!FREQUENCIES.includes(frequency)) return null
  if (
    [...parts.keys()].some(
      (name) => !BASE_PARTS.includes(name) && !PARTS_OF[frequency].includes(name),
    )
  )
    return null
  const interval = parts.get('INTERVAL') ?? '1'
  const count = parts.get('COUNT')
  const until = parts.get('UNTIL')
  if (
    !POSITIVE.test(interval) ||
    (count !== undefined && !POSITIVE.test(count)) ||
    (until !== undefined && !readRuleDate(until))
  )
    return null
  if (count !== undefined && until !== undefined) return null
  let form: RecurrenceForm | null = {
    ...defaultForm(frequency, facts),
    interval: Number(interval),
    end: count !== undefined ? 'count' : until !== undefined ? 'until' : 'never',
    count: count === undefined ? 10 : Number(count),
    until: until ?? '',
    rdates: lines.rdates,
    exdates: lines.exdates,
  }
  if (frequency === 'WEEKLY') {
    const weekdays = parts.get('BYDAY')?.split(',') ?? []
    if (!weekdays.every((day) => (WEEKDAYS as readonly string[]).includes(day))) return null
    form.weekdays = weekdays as Weekday[]
  }
  if (frequency === 'MONTHLY') form = monthlyOf(parts, form)
  return form
}

/**
 * The `recurrence` text of a form. Numbers are written as they are, a count of 0 included, so that an
 * unfinished form is refused when saved rather than saved as something else.
 */
export function textFromForm(form: RecurrenceForm): string {
  const parts: RuleParts = new Map([['FREQ', form.frequency]])
  if (form.interval !== 1) parts.set('INTERVAL', String(form.interval))
  if (form.frequency === 'WEEKLY' && form.weekdays.length) {
    parts.set('BYDAY', WEEKDAYS.filter((day) => form.weekdays.includes(day)).join(','))
  }
  if (form.frequency === 'MONTHLY') {
    if (form.monthly === 'day') parts.set('BYMONTHDAY', String(form.monthDay))
    else parts.set('BYDAY', `${form.position}${form.positionWeekday}`)
  }
  if (form.end === 'count') parts.set('COUNT', String(form.count))
  if (form.end === 'until') parts.set('UNTIL', form.until)
  return writeRecurrenceLines({ rules: [parts], rdates: form.rdates, exdates: form.exdates })
}

/** `YYYY-MM-DD`, a date input's value, of a rule date (its day, on the wall clock it was written in). */
export function dateInputValue(ruleDate: string): string {
  const read = readRuleDate(ruleDate)
  return read ? read.floating.toISOString().slice(0, 10) : ''
}

/** The rule date of a date input's `YYYY-MM-DD`: a whole day (`YYYYMMDD`), at the event's start time for RDATE and EXDATE. */
export function ruleDateOfInput(value: string): string {
  return value.replace(/-/g, '')
}
