/**
 * A source's reads made side by side: one site's items in 22 other languages were 22 requests one
 * after another for each venue and organizer, and the run waited on each round trip in turn.
 */
import { maxAnswerBytes, type ReadBudget } from './limits'

/** Requests a run sends a source at once. */
const AT_ONCE = 6

/**
 * Makes the reads, up to AT_ONCE at a time while the run has room left for AT_ONCE whole answers,
 * then one by one, so the run's budget is kept as exactly as one read at a time keeps it. Answers
 * come in the reads' order; a read that fails throws what the first failing read in that order
 * threw, as one by one.
 */
export async function readsAtOnce<T>(
  budget: ReadBudget,
  reads: (() => Promise<T>)[],
): Promise<T[]> {
  const answers: T[] = []
  const errors = new Map<number, unknown>()
  let next = 0
  const roomy = () => budget.left >= AT_ONCE * maxAnswerBytes()
  const lane = async () => {
    while (next < reads.length && !errors.size && roomy()) {
      const index = next++
      try {
        answers[index] = await reads[index]!()
      } catch (error) {
        errors.set(index, error)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, reads.length) }, lane))
  if (errors.size) throw errors.get(Math.min(...errors.keys()))
  for (; next < reads.length; next++) answers[next] = await reads[next]!()
  return answers
}
