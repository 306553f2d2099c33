/** Scrapes an instance's `/metrics` (docs/operations.md, "Metrics") and reads Prometheus' text format. */
import { expect } from 'vitest'
import { BASE_URL } from './api'

export type Sample = { name: string; labels: Record<string, string>; value: number }

/** Prometheus' text format: one sample a line, `name{label="value",...} number`; comments skipped. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const found = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (!found) throw new Error(`not a sample: ${line}`)
      const labels = Object.fromEntries(
        [...(found[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [
          label[1],
          label[2],
        ]),
      )
      return { name: found[1]!, labels, value: Number(found[3]) }
    })
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function total(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0)
}

export async function scrape(
  base = BASE_URL,
  headers: Record<string, string> = {},
): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`, { headers })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  return parse(await response.text())
}
