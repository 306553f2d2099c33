import { expect } from 'vitest'

/**
 * Wrong attempts, each wait the server asks for sat out, until the wait it asks for is at least
 * `seconds`: long enough for the checks that follow to fall within it however slow the machine is
 * (the first waits are 1 and 2 s). `attempt(n)` sends the n-th wrong attempt and gives the wait it was
 * refused with, in seconds, or 0 when it was checked. How many were checked, and the last wait.
 */
export async function failUntilWaitOf(
  seconds: number,
  attempt: (n: number) => Promise<number>,
): Promise<{ checked: number; wait: number }> {
  let wait = 0
  let checked = 0
  for (let n = 0; n < 16 && wait < seconds; n++) {
    wait = await attempt(n)
    if (wait === 0) checked++
    else if (wait < seconds) await new Promise((resolve) => setTimeout(resolve, wait * 1000))
  }
  expect(wait).toBeGreaterThanOrEqual(seconds)
  return { checked, wait }
}
