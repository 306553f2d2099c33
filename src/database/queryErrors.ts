import type { Payload, PayloadRequest } from 'payload'

/** Payload's adapter methods that run a request's values in SQL. */
const QUERYING = [
  'count',
  'countGlobalVersions',
  'countVersions',
  'create',
  'createGlobal',
  'createGlobalVersion',
  'createVersion',
  'deleteMany',
  'deleteOne',
  'deleteVersions',
  'find',
  'findDistinct',
  'findGlobal',
  'findGlobalVersions',
  'findOne',
  'findVersions',
  'queryDrafts',
  'updateGlobal',
  'updateGlobalVersion',
  'updateJobs',
  'updateMany',
  'updateOne',
  'updateVersion',
  'upsert',
] as const

/** What the adapter's querying methods are called with, as far as the translations read it. */
export type QueryArgs = { req?: Partial<PayloadRequest>; where?: unknown }

/**
 * Every querying method of Payload's adapter throws `translate(error, args)` in place of the error it
 * threw: the one place where what PostgreSQL refused becomes what the calendar answers for it.
 */
export function translateQueryErrors(
  payload: Payload,
  translate: (error: unknown, args: QueryArgs | undefined) => unknown,
): void {
  const db = payload.db as unknown as Record<string, unknown>
  for (const name of QUERYING) {
    const method = db[name]
    if (typeof method !== 'function') continue
    db[name] = async function (this: unknown, args?: QueryArgs) {
      try {
        return await method.call(this, args)
      } catch (error) {
        throw translate(error, args)
      }
    }
  }
}
