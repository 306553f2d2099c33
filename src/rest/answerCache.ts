import type { Payload } from 'payload'
import { instanceCache } from '../calendar/caches'
import { RevisionMark } from '../calendar/revisionCache'
import { KEPT_ENTRY_BYTES } from '../server/keptHeaders'
import { metrics } from '../server/metrics'

/**
 * What a handler answered, as sent: its status, its own headers and its body's UTF-8 bytes, in memory
 * of their own (`ownedBytes`). The bytes, not the text: the server in front of Next sends them as
 * they are and its front door keeps the very same bytes (`frontDoor.ts`), so an answer both caches
 * keep is held once, and a mostly-ASCII text takes a byte a character where V8 holds it in two as
 * soon as one character is past Latin-1.
 */
export type Answer = { status: number; headers: Record<string, string>; body: Buffer }

/**
 * What keeping an answer costs (`KEPT_ENTRY_BYTES`): its body, its tag, its header values (the
 * handler's own: the CORS and caching headers are added as it is sent) and the entry.
 */
function sizeOf(tag: string, answer: Answer): number {
  let bytes = answer.body.length + tag.length + KEPT_ENTRY_BYTES
  for (const value of Object.values(answer.headers)) bytes += value.length
  return bytes
}

/**
 * Anonymous answers as rendered, in this instance's memory, under their ETag (`answerTag.ts`), which
 * names everything they are made of, the content revision first: an answer is never served for a
 * revision but its own, and each instance may keep its own copy. Entries of one revision only: a newer
 * one drops them all, when PostgreSQL pushes it or at the first request that reads it. The least
 * recently served go first past the budget; requests for an answer being made wait for it rather
 * than make it again.
 */
export class AnswerCache {
  private readonly mark = new RevisionMark()
  private answers = new Map<string, { answer: Answer; bytes: number }>()
  private making = new Map<string, Promise<Answer>>()
  private bytes = 0

  constructor(private readonly budget: number) {}

  /** A newer revision is known: its answers are dropped now rather than at the next request. */
  advance(revision: string): void {
    if (this.mark.advance(revision)) this.drop()
  }

  async get(revision: string, tag: string, make: () => Promise<Answer>): Promise<Answer> {
    if (!this.budget) return make()
    if (this.mark.behind(revision)) return make()
    this.advance(revision)
    const kept = this.answers.get(tag)
    const pending = this.making.get(tag)
    // Joining an answer being made is a hit too: it is made once.
    metrics().answerCache.inc({ layer: 'namespace', result: kept || pending ? 'hit' : 'miss' })
    if (kept) {
      this.answers.delete(tag)
      this.answers.set(tag, kept)
      return kept.answer
    }
    if (pending) return pending
    const made = make()
    this.making.set(tag, made)
    try {
      const answer = await made
      if (this.mark.current === revision) this.keep(tag, answer)
      return answer
    } finally {
      if (this.making.get(tag) === made) this.making.delete(tag)
    }
  }

  private drop(): void {
    this.answers.clear()
    this.making.clear()
    this.bytes = 0
    this.held()
  }

  private keep(tag: string, answer: Answer): void {
    // One large answer (a feed, an export) must not push out everything else.
    if (answer.body.length > this.budget / 8 || this.answers.has(tag)) return
    const bytes = sizeOf(tag, answer)
    this.answers.set(tag, { answer, bytes })
    this.bytes += bytes
    for (const [oldest, entry] of this.answers) {
      if (this.bytes <= this.budget) break
      this.answers.delete(oldest)
      this.bytes -= entry.bytes
    }
    this.held()
  }

  private held(): void {
    metrics().answerCacheBytes.set({ layer: 'namespace' }, this.bytes)
  }
}

/** The answer cache of this Payload instance (its budget: `answers` in `calendar/caches.ts`). */
export function answerCache(payload: Payload): AnswerCache {
  return instanceCache(payload, 'answers', (budget) => new AnswerCache(budget))
}
