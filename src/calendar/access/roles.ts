/** The roles of the calendar, from most to least powerful, as upstream's WordPress roles. */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const
export type Role = (typeof ROLES)[number]

export type Actor = { id: number | string; role?: Role | null } | null | undefined

export function roleOf(actor: Actor): Role | 'anonymous' {
  return actor ? (actor.role ?? 'subscriber') : 'anonymous'
}
