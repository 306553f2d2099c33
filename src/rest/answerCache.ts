import type { Payload } from 'payload'
import { instanceCache } from '../calendar/caches'
import { RevisionMark } from '../calendar/revisionCache'
import { metrics } from '../server/metrics'

/** What a handler answered, as sent: its status, its own headers and its text. */
export type Answer = { status: number; headers: Record<string, string>; text: string }

/**
 * Bytes an answer holds in the heap, a little for its headers and its text as V8 stores it: a byte a
 * character while every character is Latin-1, else two for every character, so that one typographic
 * apostrophe (U+2019) in an English page doubles it (its UTF-8 length counted half of that).
 */
const sizeOf = ({ text }: Answer) => text.length * (/[\u0100-\uffff]/.test(text) ? 2 : 1) + 256

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
    const bytes = sizeOf(answer)
    // One large answer (a feed, an export) must not push out everything else.
    if (bytes > this.budget / 8 || this.answers.has(tag)) return
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
