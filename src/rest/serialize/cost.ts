import { slugify } from '../../collections/fields/slug'

/**
 * Event costs. An event stores its cost values (numbers as `.`-decimal strings, anything else as written),
 * one currency symbol and where that symbol goes; the event object shows them as the `cost` text
 * (`"Free – 30$"`) and as `cost_details`.
 */

export type CurrencyPosition = 'prefix' | 'postfix' | ''

export interface ParsedCost {
  values: string[]
  symbol: string
  position: CurrencyPosition
}

export interface CostDetails {
  currency_symbol: string
  currency_code: string
  currency_position: CurrencyPosition
  values: string[]
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
const RANGE_DASH = ' – '
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
  if (entries.some((entry) => entry.values.filter(isAmount).length > 1)) return { ...NO_COST, values }
  const marks = entries.flatMap((entry) => entry.marks)
  const symbol = agreedValue(marks.map((mark) => mark.symbol)) ?? ''
  const position = symbol === '' ? '' : (agreedValue(marks.map((mark) => mark.position)) ?? '')
  return { values, symbol, position }
}

function costEntriesOf(item: string | number): CostPart[] {
  // A JS number is already unambiguous: `1.125` must not be read as the European `1.125` (one thousand ...).
  if (typeof item === 'number') return [{ values: [String(item)], marks: [] }]
  const text = item.trim()
  // Words without numbers are one cost, commas, dashes and all (`Pay-what-you-can`, `Members, guests`).
  if (!WRITTEN_NUMBER.test(text)) return text === '' ? [] : [writtenCost(text)]
  return text.split(ENTRY_SEPARATOR).filter(Boolean).map(costEntryOf)
}

function costEntryOf(text: string): CostPart {
  if (!WRITTEN_NUMBER.test(text)) return writtenCost(text)
  const bounds = text.split(RANGE_SEPARATOR).map(costPartOf)
  return { values: bounds.flatMap((bound) => bound.values), marks: bounds.flatMap((bound) => bound.marks) }
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
  const normalised = written.replace(/[.,]/g, (separator) => (separator === decimalSeparator ? '.' : ''))
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

/**
 * The `cost` text: the lowest and highest amounts (`"$23"`, `"Free – 30$"`), a zero amount reading `Free`;
 * without a position the symbol goes first. Costs without any number are shown as written (`"Donation"`).
 */
export function renderCost(values: string[], symbol: string, position: CurrencyPosition): string {
  const amounts = sortByAmount(values.filter(isAmount))
  if (amounts.length === 0) return values.join(', ')
  const lowest = amounts[0]!
  const highest = amounts.at(-1)!
  const bounds = Number(lowest) === Number(highest) ? [lowest] : [lowest, highest]
  return bounds.map((amount) => formatAmount(amount, symbol, position)).join(RANGE_DASH)
}

function formatAmount(amount: string, symbol: string, position: CurrencyPosition): string {
  if (Number(amount) === 0) return 'Free'
  return position === 'postfix' ? `${amount}${symbol}` : `${symbol}${amount}`
}

/**
 * The `cost_details` object. As upstream, a cost without a number shows as its slug (`Free` → `free`) and
 * counts as 0 in the ascending order, before the amounts (`["free", "20"]`); equal ones keep their order.
 */
export function costDetails(values: string[], symbol: string, code: string, position: CurrencyPosition): CostDetails {
  const ordered = [...values].sort((a, b) => amountOf(a) - amountOf(b)).map((value) => (isAmount(value) ? value : slugify(value)))
  return { currency_symbol: symbol, currency_code: code, currency_position: position, values: ordered }
}

/** schema.org's `offers.price`: the `cost` text without a symbol (`"Free – 30"`), `"0"` for a lone `Free`. */
export function offerPrice(values: string[]): string {
  const text = renderCost(values, '', '')
  return /^\s*free\s*$/i.test(text) ? '0' : text
}

function amountOf(value: string): number {
  return isAmount(value) ? Number(value) : 0
}

function isAmount(value: string): boolean {
  return NORMALISED_NUMBER.test(value)
}

function sortByAmount(amounts: string[]): string[] {
  return [...amounts].sort((a, b) => Number(a) - Number(b))
}
