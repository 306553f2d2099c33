/**
 * Runs `work` on each item, at most `limit` at a time: independent jobs (import subscriptions)
 * where one that is slow must not hold up the others, without starting so many at once that they
 * take every database connection.
 */
export async function sideBySide<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++)
      results[index] = await work(items[index]!)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}
