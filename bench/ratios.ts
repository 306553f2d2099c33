import type { Row } from './measure'

/** The goals at one size, as ratios within this run. */
export function ratiosAt(rows: Row[], size: number): string[] {
  const find = (prefix: string) =>
    rows.find((r) => r.size === size && r.scenario.startsWith(prefix))
  const notes: string[] = []
  const percent = (x: number, y: number) => `${((x / y) * 100).toFixed(0)}%`
  const [a, c, e, f, h, i, l] = ['a.', 'c.', 'e.', 'f. raw floor (', 'h.', 'i.', 'l.'].map(find)
  const at = `at ${size.toLocaleString('en')} events`
  if (a && e) notes.push(`(a)/(e) ${at}: ${(a.rps / e.rps).toFixed(2)}× (target ≥ 3×)`)
  if (a && f) notes.push(`(a)/(f) ${at}: ${percent(a.rps, f.rps)} (target ≥ 60%)`)
  // The app's CPU per answer follows the machine's load much less than the rate served does.
  // Its helper threads' share is mostly the garbage collector's (docs/performance.md, "What a made list costs").
  const cpu = (row: Row, floor = f) =>
    `${row.cpuMs} ms of CPU an answer (${row.helperCpuMs} ms of it on helper threads) against ${floor?.cpuMs} ms (${floor?.helperCpuMs})`
  if (h && f) notes.push(`(h)/(f) ${at}: ${percent(h.rps, f.rps)} (target ≥ 50%); ${cpu(h)}`)
  // The floor answering (h)'s own lists: what a raw server makes of the same answers.
  const fh = find('f. raw floor, varied')
  if (h && fh)
    notes.push(`(h)/(the floor of the same lists) ${at}: ${percent(h.rps, fh.rps)}; ${cpu(h, fh)}`)
  if (i && f) notes.push(`(i)/(f) ${at}: ${percent(i.rps, f.rps)} (target ≥ 50%); ${cpu(i)}`)
  const fi = find("f. raw floor, the editor's")
  if (i && fi)
    notes.push(`(i)/(the floor of the same list) ${at}: ${percent(i.rps, fi.rps)}; ${cpu(i, fi)}`)
  if (i && l)
    notes.push(
      `(l), 50 events a page ${at}: ${l.cpuMs} ms of CPU an answer (${l.helperCpuMs} ms on helper threads), ${((l.cpuMs - i.cpuMs) / 40).toFixed(3)} ms an event more than (i)'s 10`,
    )
  if (a && c) notes.push(`(c)/(a) ${at}: ${(c.rps / a.rps).toFixed(2)}× (target ≥ 1×)`)
  for (const write of ['create', 'update']) {
    const [namespace, floor] = ['editor', 'write floor'].map((by) =>
      find(`w. ${write} event, ${by}`),
    )
    if (namespace && floor)
      notes.push(
        `${write} ${at}: ${percent(namespace.rps, floor.rps)} of the write floor (target ≥ 25%), ${namespace.queries} queries a write (floor ${floor.queries})`,
      )
  }
  return notes
}
