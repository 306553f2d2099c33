import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (`apt-get install -y chromium`): Playwright's own browser downloads do not reach this machine. */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Chromium headless, as the browser tests and the benchmarks drive it: no sandbox (CI runs as root),
 * and none of the background traffic (updates, sync) that would fall among the pages' own requests.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
