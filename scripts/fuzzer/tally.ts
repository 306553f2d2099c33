/** Counts of the answers, per status and per route, for the runners' reports. */
import { describe } from './oracles'
import { type FuzzRequest } from './request'
import { type Outcome } from './send'

export class Tally {
  readonly byStatus = new Map<string, number>()
  readonly byTarget = new Map<string, Map<number, number>>()
  requests = 0
  unsendable = 0
  retried = 0
  slowest = { ms: 0, request: '' }

  add(request: FuzzRequest, outcome: Outcome): void {
    this.requests++
    if (outcome.unsendable) this.unsendable++
    if (outcome.retried) this.retried++
    const key = outcome.unsendable
      ? 'unsendable'
      : outcome.error
        ? 'no answer'
        : String(outcome.status)
    this.byStatus.set(key, (this.byStatus.get(key) ?? 0) + 1)
    const perTarget = this.byTarget.get(request.target) ?? new Map<number, number>()
    perTarget.set(outcome.status, (perTarget.get(outcome.status) ?? 0) + 1)
    this.byTarget.set(request.target, perTarget)
    if (outcome.ms > this.slowest.ms)
      this.slowest = { ms: outcome.ms, request: describe(request).slice(0, 200) }
  }

  summary(): string {
    const statuses = [...this.byStatus.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}: ${count}`)
    return `${this.requests} requests — ${statuses.join(', ')}${this.retried ? ` — ${this.retried} retried after a connection reset` : ''} — slowest ${Math.round(this.slowest.ms)} ms (${this.slowest.request})`
  }

  table(): string {
    const statuses = [
      ...new Set([...this.byTarget.values()].flatMap((counts) => [...counts.keys()])),
    ].sort((a, b) => a - b)
    const rows = [...this.byTarget.entries()].sort(([a], [b]) => a.localeCompare(b))
    const width = Math.max(...rows.map(([target]) => target.length), 6)
    const header = `${'route'.padEnd(width)} ${statuses.map((status) => String(status).padStart(6)).join('')}`
    return [
      header,
      ...rows.map(
        ([target, counts]) =>
          `${target.padEnd(width)} ${statuses.map((status) => String(counts.get(status) ?? '').padStart(6)).join('')}`,
      ),
    ].join('\n')
  }
}
