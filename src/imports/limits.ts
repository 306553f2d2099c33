/**
 * What one import may read from another server (docs/operations.md, "Imports"): a source is anyone's,
 * so its answers' sizes, its page counts and its speed are bounded here, not trusted.
 */
import { numberSetting } from '../calendar/settings'

const MB = 1024 * 1024

/** One answer's body, read as it streams: an answer over it is refused, not read whole first. */
export const maxAnswerBytes = () => numberSetting('IMPORT_MAX_ANSWER_MB') * MB
/** Everything one run reads, all answers together. */
export const maxRunBytes = () => numberSetting('IMPORT_MAX_RUN_MB') * MB
/** Pages read of one list, whatever page count the source claims. */
export const maxPages = () => numberSetting('IMPORT_MAX_PAGES')
/** One request, from connecting to the last byte of the answer, redirects included. */
export const requestDeadlineMs = () => numberSetting('IMPORT_REQUEST_SECONDS') * 1000
/** Subscriptions imported side by side in one pass. */
export const subscriptionsAtOnce = () => numberSetting('IMPORT_SUBSCRIPTIONS_AT_ONCE')

/** What a run has left to read; each answer read takes its size from it. */
export type ReadBudget = { left: number }

export const runBudget = (): ReadBudget => ({ left: maxRunBytes() })
