/**
 * Event costs. An event stores its cost values (numbers as `.`-decimal strings, anything else as written),
 * one currency symbol and where that symbol goes. How a door shows them is the door's business; what a
 * written cost means is the calendar's.
 */

export type CurrencyPosition = 'prefix' | 'postfix' | ''

export interface ParsedCost {
  values: string[]
  symbol: string
  position: CurrencyPosition
}

/** A number as written by people: digits with `.` or `,` separators (`1,000`, `10,50`, `1.234,5`). */
const WRITTEN_NUMBER = /\d+(?:[.,]\d+)*/
/** A cost entry's pieces: the written numbers, and the runs of other characters that may name a currency. */
const COST_TOKEN = /(\d+(?:[.,]\d+)*)|([^\s\d.,;/|~\-–—]+)/g
/** What separates the entries of one string: `0$, 20$; 30$` (but not the `,` of `10,50`). */
const ENTRY_SEPARATOR = /\s*(?:;|,(?!\d))\s*/
/** What separates the bounds of a range inside one entry: `10 - 20 €`, `$10 – $20`. */
const RANGE_SEPARATOR = /\s*[/|~\-–—]\s*/
const NORMALISED_NUMBER = /^\d+(?:\.\d+)?$/
const NO_COST: ParsedCost = { values: [], symbol: '', position: '' }

interface SymbolMark {
  symbol: string
  position: Exclude<CurrencyPosition, ''>
}

interface CostPart {
  values: string[]
  marks: SymbolMark[]
}

/**
 * Reads a `cost` as sent on create/update: `"20$"`, `"$23"`, `["0$", "20$", "30$"]`, `"€ 10"`, `"0$, 20$"`,
 * `"10 - 20"`, `"Free"`, `"Donation"`. The symbol is the one that all entries carrying a symbol agree on (an
 * entry without one does not disagree), `""` when they differ; its position is `""` when it stands before
 * some amounts and after others. As upstream, a symbol is read only when every entry is one amount: with a
 * range inside an entry (`"$10 - $20"`) none is, and the event's currency fields and the settings decide.
 */
export function parseCostInput(input: string | number | (string | number)[]): ParsedCost {
  // Upstream keeps no cost for a lone `"0"` (PHP's `empty`), while `["0"]` and `"0$"` are free events.
  if (input === '0' || input === 0) return NO_COST
  const entries = (Array.isArray(input) ? input : [input]).flatMap(costEntriesOf)
  const values = [...new Set(entries.flatMap((entry) => entry.values))]
  if (entries.some((entry) => entry.values.filter(isAmount).length > 1))
    return { ...NO_COST, values }
  const marks = entries.flatMap((entry) => entry.marks)
  const symbol = agreedValue(marks.map((mark) => mark.symbol)) ?? ''
  const position = symbol === '' ? '' : (agreedValue(marks.map((mark) => mark.position)) ?? '')
  return { values, symbol, position }
}

function costEntriesOf(item: string | number): CostPart[] {
  // A JS number is already unambiguous: `1.125` must not be read as the European `1.125` (one thousand ...).
  if (typeof item === 'number') return [{ values: [decimalOf(item)], marks: [] }]
  const text = item.trim()
  // Words without numbers are one cost, commas, dashes and all (`Pay-what-you-can`, `Members, guests`).
  if (!WRITTEN_NUMBER.test(text)) return text === '' ? [] : [writtenCost(text)]
  return text.split(ENTRY_SEPARATOR).filter(Boolean).map(costEntryOf)
}

/**
 * A number in plain decimals, every digit kept, as a cost value is stored: `String` writes `1e+21`
 * and `1e-7`, which read back as a range.
 */
function decimalOf(value: number): string {
  const written = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(String(value))
  if (!written) return String(value)
  const [, sign, first, rest = '', exponent] = written
  const digits = `${first}${rest}`
  // Where the point falls among the digits.
  const point = 1 + Number(exponent)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

function costEntryOf(text: string): CostPart {
  if (!WRITTEN_NUMBER.test(text)) return writtenCost(text)
  const bounds = text.split(RANGE_SEPARATOR).map(costPartOf)
  return {
    values: bounds.flatMap((bound) => bound.values),
    marks: bounds.flatMap((bound) => bound.marks),
  }
}

function costPartOf(text: string): CostPart {
  const values: string[] = []
  const marks: SymbolMark[] = []
  for (const [, number, word] of text.matchAll(COST_TOKEN)) {
    if (number !== undefined) {
      const value = normaliseNumber(number)
      if (value === undefined) return writtenCost(text)
      values.push(value)
    } else if (isFree(word!)) {
      // Only beside amounts (`Free – 30$`): a cost that is just a word is kept as written.
      values.push('0')
    } else {
      marks.push({ symbol: word!, position: values.length === 0 ? 'prefix' : 'postfix' })
    }
  }
  return values.length === 0 ? writtenCost(text) : { values, marks }
}

function writtenCost(text: string): CostPart {
  return { values: text === '' ? [] : [text], marks: [] }
}

function isFree(word: string): boolean {
  return word.toLowerCase() === 'free'
}

/** `1,000` → `1000`, `10,50` → `10.50`, `1.234,5` → `1234.5`; `undefined` when no reading makes sense. */
function normaliseNumber(written: string): string | undefined {
  const decimalSeparator = decimalSeparatorOf(written)
  const normalised = written.replace(/[.,]/g, (separator) =>
    separator === decimalSeparator ? '.' : '',
  )
  return NORMALISED_NUMBER.test(normalised) ? normalised : undefined
}

/**
 * With both separators, the last one is the decimal one (`1,234.5`, `1.234,5`). A separator used several
 * times groups thousands (`1,000,000`); used once, it groups thousands when exactly three digits follow
 * (`1.000`, `1,000`) unless the whole part is 0 (`0.125`), and is the decimal one otherwise (`10,50`).
 */
function decimalSeparatorOf(written: string): string | undefined {
  const separators = written.match(/[.,]/g) ?? []
  const last = separators.at(-1)
  if (last === undefined) return undefined
  if (separators.some((separator) => separator !== last)) return last
  if (separators.length > 1) return undefined
  const [whole, fraction] = written.split(last)
  return fraction!.length === 3 && whole !== '0' ? undefined : last
}

function agreedValue<T>(values: T[]): T | undefined {
  return values.every((value) => value === values[0]) ? values[0] : undefined
}

/** A stored value that is an amount (`"20"`, `"10.5"`) rather than words (`"Donation"`). */
export function isAmount(value: string): boolean {
  return NORMALISED_NUMBER.test(value)
}
