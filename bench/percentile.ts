/**
 * The latency below which a share `q` of the answers came, in ms to a tenth: autocannon's own
 * percentiles are whole milliseconds and count refusals too, too coarse for the p50 ratio of (a) at 1M against 10k.
 */
export function percentile(latencies: number[], q: number): number {
  const sorted = [...latencies].sort((a, b) => a - b)
  return (
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0) * 10) / 10
  )
}
