import { Forbidden, type PayloadRequest } from 'payload'

/**
 * The name Payload's admin list view knows a refused query by: it renders the list empty for an
 * error so named and nothing at all for any other (no table, no columns, no message), and the sort
 * that caused it, saved in the user's preferences first, kept the list blank on every later visit.
 */
export const QUERY_ERROR = 'QueryError'

/**
 * A `where` or `sort` the caller may not use (through a link or a field they may not read): 403 as
 * Payload's `Forbidden`, named as Payload's `QueryError` (`QUERY_ERROR`).
 */
export class RefusedQuery extends Forbidden {
  constructor(req: PayloadRequest) {
    super(req.t)
    this.name = QUERY_ERROR
  }
}
