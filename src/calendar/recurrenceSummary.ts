import { floatingWallClock } from './dates/wallClock'
import {
  readRecurrenceLines,
  readRuleDate,
  WEEKDAYS,
  type RuleParts,
  type Weekday,
} from './recurrenceText'

type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY'

/**
 * The sentence frames of one language. Weekday, month and date names come from Intl in whatever
 * language is asked; only the words around them are written here.
 */
type Frames = {
  every: Record<Frequency, (interval: number) => string>
  /** `ordinal` is 1, 2... from the start of the period, or -1 (last), -2... from its end. */
  nthWeekday: (ordinal: number, name: string) => string
  monthDay: (day: number) => string
  times: (count: number) => string
} & Record<Phrase, (text: string) => string>

/** The frames that put one text (a name, a list, a date) into words. */
const PHRASES = [
  'weekday',
  'onWeekdays',
  'onNthWeekdays',
  'onMonthDays',
  'inMonths',
  'onDate',
  /** One date of the extra or excluded ones. */
  'date',
  'until',
  'also',
  'except',
  'undescribed',
] as const
type Phrase = (typeof PHRASES)[number]

/** What is said for 1, and for any other count (`#`). */
type Counted = [one: string, other: string]

/** A day or weekday by its place in the period (`%` its name, `#` its number): last, second to last, nth to last, nth. */
type Places = { last: string; secondLast?: string; fromEnd: string; fromStart: string }

/** One language's frames as text: `%` stands for the text put in, `#` for a number. */
type Texts = {
  every: Record<Frequency, Counted>
  times: Counted
  nthWeekday: Places
  monthDay: Places
  /** A number as an ordinal (2nd, 2e); `dayNumber`, a day of the month from its start. */
  ordinal: (n: number) => string
  dayNumber: (n: number) => string
} & Record<Phrase, string>

const englishOrdinalSuffix: Record<string, string> = {
  one: 'st',
  two: 'nd',
  few: 'rd',
  other: 'th',
}
const englishOrdinals = new Intl.PluralRules('en', { type: 'ordinal' })
const en = (n: number) => `${n}${englishOrdinalSuffix[englishOrdinals.select(n)]}`

const TEXTS: Record<string, Texts> = {
  en: {
    every: {
      DAILY: ['Every day', 'Every # days'],
      WEEKLY: ['Every week', 'Every # weeks'],
      MONTHLY: ['Every month', 'Every # months'],
      YEARLY: ['Every year', 'Every # years'],
    },
    times: ['once', '# times'],
    nthWeekday: { last: 'the last %', fromEnd: 'the # to last %', fromStart: 'the # %' },
    monthDay: { last: 'last day', fromEnd: '# to last day', fromStart: '#' },
    ordinal: en,
    dayNumber: en,
    weekday: '%',
    onWeekdays: 'on %',
    onNthWeekdays: 'on %',
    onMonthDays: 'on the %',
    inMonths: 'in %',
    onDate: 'on %',
    date: '%',
    until: 'until %',
    also: 'also on %',
    except: 'except %',
    undescribed: '(rule parts not described: %)',
  },
  fr: {
    every: {
      DAILY: ['Tous les jours', 'Tous les # jours'],
      WEEKLY: ['Toutes les semaines', 'Toutes les # semaines'],
      MONTHLY: ['Tous les mois', 'Tous les # mois'],
      YEARLY: ['Tous les ans', 'Tous les # ans'],
    },
    times: ['1 fois', '# fois'],
    nthWeekday: {
      last: 'le dernier %',
      secondLast: 'l’avant-dernier %',
      fromEnd: 'le # % avant la fin',
      fromStart: 'le # %',
    },
    monthDay: {
      last: 'le dernier jour',
      secondLast: 'l’avant-dernier jour',
      fromEnd: 'le # jour avant la fin',
      fromStart: 'le #',
    },
    ordinal: (n) => (n === 1 ? '1er' : `${n}e`),
    dayNumber: (n) => (n === 1 ? '1er' : String(n)),
    weekday: 'le %',
    onWeekdays: '%',
    onNthWeekdays: '%',
    onMonthDays: '%',
    inMonths: 'en %',
    onDate: 'le %',
    date: 'le %',
    until: 'jusqu’au %',
    also: 'et aussi %',
    except: 'sauf %',
    undescribed: '(parties de la règle non décrites : %)',
  },
  de: {
    every: {
      DAILY: ['Täglich', 'Alle # Tage'],
      WEEKLY: ['Wöchentlich', 'Alle # Wochen'],
      MONTHLY: ['Monatlich', 'Alle # Monate'],
      YEARLY: ['Jährlich', 'Alle # Jahre'],
    },
    times: ['einmal', '#-mal'],
    nthWeekday: {
      last: 'letzten %',
      secondLast: 'vorletzten %',
      fromEnd: '#.-letzten %',
      fromStart: '#. %',
    },
    monthDay: {
      last: 'letzten Tag',
      secondLast: 'vorletzten Tag',
      fromEnd: '#.-letzten Tag',
      fromStart: '#.',
    },
    ordinal: String,
    dayNumber: String,
    weekday: '%',
    onWeekdays: 'am %',
    onNthWeekdays: 'am %',
    onMonthDays: 'am %',
    inMonths: 'im %',
    onDate: 'am %',
    date: '%',
    until: 'bis zum %',
    also: 'außerdem am %',
    except: 'außer am %',
    undescribed: '(nicht beschriebene Regelteile: %)',
  },
}

/** `template` with `%` replaced by `text` and `#` by `number`, in one pass (the text may hold either). */
const fill = (template: string, text: string, number = '') =>
  template.replace(/[%#]/g, (mark) => (mark === '%' ? text : number))

/** A language's texts as the frames the summary calls. */
function framesOf(texts: Texts): Frames {
  const counted =
    ([one, other]: Counted) =>
    (n: number) =>
      n === 1 ? one : fill(other, '', String(n))
  const placed = (places: Places, fromStart: (n: number) => string) => (n: number, name: string) =>
    n === -1
      ? fill(places.last, name)
      : n === -2 && places.secondLast
        ? fill(places.secondLast, name)
        : n < 0
          ? fill(places.fromEnd, name, texts.ordinal(-n))
          : fill(places.fromStart, name, fromStart(n))
  const every = Object.fromEntries(
    Object.entries(texts.every).map(([frequency, said]) => [frequency, counted(said)]),
  ) as Frames['every']
  const monthDay = placed(texts.monthDay, texts.dayNumber)
  return {
    ...(Object.fromEntries(
      PHRASES.map((phrase) => [phrase, (text: string) => fill(texts[phrase], text)]),
    ) as Record<Phrase, (text: string) => string>),
    every,
    nthWeekday: placed(texts.nthWeekday, texts.ordinal),
    monthDay: (day) => monthDay(day, ''),
    times: counted(texts.times),
  }
}

const FRAMES: Record<string, Frames> = Object.fromEntries(
  Object.entries(TEXTS).map(([language, texts]) => [language, framesOf(texts)]),
)

/** The languages whose sentence frames are written; any other gets English frames around its own names and dates. */
export const SUMMARY_LANGUAGES = Object.keys(FRAMES)

const BYDAY_ENTRY = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/
/** Parts that say how a rule runs, not which days it gives: nothing to tell an editor. */
const SILENT_PARTS = new Set(['WKST'])

/** A locale Intl accepts; a code it cannot read (Payload's `zhTw`) falls back to English. */
function intlLocale(locale: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(locale)[0] ?? 'en'
  } catch {
    return 'en'
  }
}

class Summarizer {
  readonly frames: Frames
  readonly #list: Intl.ListFormat
  readonly #weekday: Intl.DateTimeFormat
  readonly #month: Intl.DateTimeFormat
  readonly #monthAndDay: Intl.DateTimeFormat
  readonly #date: Intl.DateTimeFormat
  readonly #dateTime: Intl.DateTimeFormat

  constructor(
    locale: string,
    readonly timeZone: string,
  ) {
    const language = intlLocale(locale)
    const framed = FRAMES[language.split('-')[0]!.toLowerCase()]
    this.frames = framed ?? FRAMES.en!
    // Dates are floating wall clocks: their UTC fields are what is shown.
    const utc = { timeZone: 'UTC' } as const
    // The list's "and" belongs to the sentence: in the frames' language.
    this.#list = new Intl.ListFormat(framed ? language : 'en', { type: 'conjunction' })
    this.#weekday = new Intl.DateTimeFormat(language, { ...utc, weekday: 'long' })
    this.#month = new Intl.DateTimeFormat(language, { ...utc, month: 'long' })
    this.#monthAndDay = new Intl.DateTimeFormat(language, { ...utc, month: 'long', day: 'numeric' })
    this.#date = new Intl.DateTimeFormat(language, { ...utc, dateStyle: 'long' })
    this.#dateTime = new Intl.DateTimeFormat(language, {
      ...utc,
      dateStyle: 'long',
      timeStyle: 'short',
    })
  }

  list(items: string[]): string {
    return this.#list.format(items)
  }

  /** MO..SU: 1 January 2024 was a Monday. */
  weekdayName(code: string): string {
    return this.#weekday.format(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(code as Weekday)))
  }

  monthName(month: number): string {
    return this.#month.format(Date.UTC(2024, month - 1, 1))
  }

  monthAndDay(month: number, day: number): string {
    return this.#monthAndDay.format(Date.UTC(2024, month - 1, day))
  }

  /**
   * A date of the text in the event's wall clock: a UTC one (`Z`) is moved into the zone. Its time is
   * shown when it has one, unless `wholeDay` says which time means the whole day (an UNTIL's 23:59:59).
   */
  date(value: string, wholeDay?: string): string {
    const read = readRuleDate(value)
    if (!read) return value
    const wall = read.utc ? floatingWallClock(read.floating, this.timeZone) : read.floating
    const showTime = read.hasTime && wall.toISOString().slice(11, 19) !== wholeDay
    return (showTime ? this.#dateTime : this.#date).format(wall)
  }
}

function isFrequency(value: string | undefined): value is Frequency {
  return value === 'DAILY' || value === 'WEEKLY' || value === 'MONTHLY' || value === 'YEARLY'
}

const integers = (value: string | undefined) => (value ?? '').split(',').map(Number)

/** The days of BYDAY, with BYSETPOS read as one ordinal when it picks one of a single weekday (BYDAY=TU;BYSETPOS=2). */
function weekdayPhrase(parts: RuleParts, said: Set<string>, s: Summarizer): string | undefined {
  const byday = parts.get('BYDAY')
  if (byday === undefined) return undefined
  const entries = byday.split(',').map((entry) => BYDAY_ENTRY.exec(entry))
  if (entries.some((entry) => !entry)) return undefined
  const days = entries.map((entry) => ({
    ordinal: entry![1] === undefined ? undefined : Number(entry![1]),
    name: s.weekdayName(entry![2]!),
  }))
  const setpos = parts.get('BYSETPOS')
  const { frames } = s
  if (setpos !== undefined) {
    if (days.length !== 1 || days[0]!.ordinal !== undefined || !/^[+-]?\d+$/.test(setpos))
      return undefined
    said.add('BYDAY').add('BYSETPOS')
    return frames.onNthWeekdays(frames.nthWeekday(Number(setpos), days[0]!.name))
  }
  if (days.every((day) => day.ordinal === undefined)) {
    said.add('BYDAY')
    return frames.onWeekdays(s.list(days.map((day) => frames.weekday(day.name))))
  }
  if (days.every((day) => day.ordinal !== undefined)) {
    said.add('BYDAY')
    return frames.onNthWeekdays(
      s.list(days.map((day) => frames.nthWeekday(day.ordinal!, day.name))),
    )
  }
  return undefined
}

/** One RRULE as a sentence: how often, on which days, in which months, and its end. */
function describeRule(parts: RuleParts, s: Summarizer): string | null {
  const frequency = parts.get('FREQ')
  if (!isFrequency(frequency)) return null
  const { frames } = s
  const said = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', ...SILENT_PARTS])
  const interval = Number(parts.get('INTERVAL') ?? '1')
  const phrases = [
    frames.every[frequency](Number.isInteger(interval) && interval > 0 ? interval : 1),
  ]
  const weekdays = weekdayPhrase(parts, said, s)
  if (weekdays) phrases.push(weekdays)
  const months = parts.has('BYMONTH') ? integers(parts.get('BYMONTH')) : undefined
  const days = parts.has('BYMONTHDAY') ? integers(parts.get('BYMONTHDAY')) : undefined
  const valid = (list: number[] | undefined, max: number) =>
    list?.every((n) => Number.isInteger(n) && n !== 0 && Math.abs(n) <= max)
  if (
    months?.length === 1 &&
    days?.length === 1 &&
    days[0]! > 0 &&
    valid(months, 12) &&
    valid(days, 31)
  ) {
    // One day of one month reads as a date: "on 14 July".
    phrases.push(frames.onDate(s.monthAndDay(months[0]!, days[0]!)))
    said.add('BYMONTH').add('BYMONTHDAY')
  } else {
    if (valid(days, 31)) {
      phrases.push(frames.onMonthDays(s.list(days!.map(frames.monthDay))))
      said.add('BYMONTHDAY')
    }
    if (valid(months, 12) && months!.every((month) => month > 0)) {
      phrases.push(frames.inMonths(s.list(months!.map((month) => s.monthName(month)))))
      said.add('BYMONTH')
    }
  }
  const undescribed = [...parts]
    .filter(([name]) => !said.has(name))
    .map(([name, value]) => `${name}=${value}`)
  if (undescribed.length) phrases.push(frames.undescribed(undescribed.join(';')))
  const count = parts.get('COUNT')
  const until = parts.get('UNTIL')
  const end =
    count !== undefined
      ? frames.times(Number(count))
      : until !== undefined
        ? frames.until(s.date(until, '23:59:59'))
        : undefined
  return end ? `${phrases.join(' ')}, ${end}` : phrases.join(' ')
}

/**
 * A readable summary of a `recurrence` text (docs/api.md §16) in `locale`, such as "Every 2 weeks on
 * Tuesday and Thursday, until June 30, 2027". Weekday, month and date names are Intl's in any
 * language; the sentence frames are English, French or German (`SUMMARY_LANGUAGES`), English
 * otherwise. Dates with `Z` are shown in `timeZone`, the event's zone. Null when the text has no rule
 * the summary can read (empty, or not RFC 5545 lines).
 */
export function recurrenceSummary(rule: string, locale: string, timeZone = 'UTC'): string | null {
  const lines = readRecurrenceLines(rule)
  if (!lines?.rules.length) return null
  const s = new Summarizer(locale, timeZone)
  const rules = lines.rules.map((parts) => describeRule(parts, s))
  if (rules.some((sentence) => sentence === null)) return null
  const extra = (dates: string[], frame: (list: string) => string) =>
    dates.length ? [frame(s.list(dates.map((date) => s.frames.date(s.date(date)))))] : []
  return [
    ...rules,
    ...extra(lines.rdates, s.frames.also),
    ...extra(lines.exdates, s.frames.except),
  ].join('; ')
}

/** One date of a `recurrence` text as the summary writes it: the editor's lists of extra and excluded dates show them so. */
export function formatRuleDate(value: string, locale: string, timeZone = 'UTC'): string {
  return new Summarizer(locale, timeZone).date(value)
}

/** MO..SU named in `locale` (`long`: Tuesday, `short`: Tue), for the editor's weekday choices. */
export function weekdayNames(locale: string, width: 'long' | 'short'): Record<Weekday, string> {
  const format = new Intl.DateTimeFormat(intlLocale(locale), { timeZone: 'UTC', weekday: width })
  return Object.fromEntries(
    WEEKDAYS.map((code, index) => [code, format.format(Date.UTC(2024, 0, 1 + index))]),
  ) as Record<Weekday, string>
}
