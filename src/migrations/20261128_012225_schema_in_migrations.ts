import { calendarSchema } from './calendarSchema'

/**
 * The calendar's own schema (triggers, functions, bookkeeping tables, indexes, settings), made at
 * every start by the releases before this one, from now on in the migrations alone.
 */
export const { up, down } = calendarSchema
