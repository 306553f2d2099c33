/**
 * Debian's Chromium as every browser test drives it (tests/e2e: the admin, the API reference, the
 * widget): headless, as CI has it, its pages in English with the tests' patience, and what they show
 * saved under test-results/.
 */
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { CHROMIUM, launchChromium as launch } from '../../scripts/chromium'

export const TIMEOUT = 60_000
export const resultsDir = path.resolve(import.meta.dirname, '..', '..', 'test-results')

/** A missing browser fails the test rather than skipping it. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(resultsDir, { recursive: true })
  expect(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: install it (apt-get install -y chromium), as .ci/run does`,
  ).toBe(true)
  return launch()
}

/** A page in a context of its own: the browser's zone as given, 1280 px wide unless told. */
export async function openPage(
  browser: Browser,
  { timezoneId, width = 1280 }: { timezoneId: string; width?: number },
): Promise<Page> {
  const context = await browser.newContext({
    timezoneId,
    locale: 'en-US',
    viewport: { width, height: 900 },
  })
  context.setDefaultTimeout(TIMEOUT)
  context.setDefaultNavigationTimeout(TIMEOUT)
  return context.newPage()
}
