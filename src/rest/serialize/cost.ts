import { isAmount, type CurrencyPosition } from '../../calendar/cost'
import { slugify } from '../../collections/fields/slug'

/** How the namespace shows an event's stored cost (src/calendar/cost.ts): the `cost` text and `cost_details`. */

export interface CostDetails {
  currency_symbol: string
  currency_code: string
  currency_position: CurrencyPosition
  values: string[]
}

const RANGE_DASH = ' – '

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
export function costDetails(
  values: string[],
  symbol: string,
  code: string,
  position: CurrencyPosition,
): CostDetails {
  const ordered = [...values]
    .sort((a, b) => amountOf(a) - amountOf(b))
    .map((value) => (isAmount(value) ? value : slugify(value)))
  return {
    currency_symbol: symbol,
    currency_code: code,
    currency_position: position,
    values: ordered,
  }
}

/** schema.org's `offers.price`: the `cost` text without a symbol (`"Free – 30"`), `"0"` for a lone `Free`. */
export function offerPrice(values: string[]): string {
  const text = renderCost(values, '', '')
  return /^\s*free\s*$/i.test(text) ? '0' : text
}

function amountOf(value: string): number {
  return isAmount(value) ? Number(value) : 0
}

function sortByAmount(amounts: string[]): string[] {
  return [...amounts].sort((a, b) => Number(a) - Number(b))
}
