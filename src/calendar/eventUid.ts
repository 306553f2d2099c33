/**
 * An event's identity outside this calendar (the CSV export's `Event UID`): its id at the site's host,
 * as iCalendar UIDs are written (`12@events.example.org`). Importing a file with such a UID into the
 * site that wrote it finds the event again, whatever else the file changed.
 */
export function eventUid(id: number, host: string): string {
  return `${id}@${host}`
}

/** The event id a UID of this site names, given the hosts the site answers on; undefined for any other UID. */
export function eventIdOfUid(uid: string, hosts: string[]): number | undefined {
  const match = /^(\d+)@(.+)$/.exec(uid)
  return match && hosts.includes(match[2]!.toLowerCase()) ? Number(match[1]) : undefined
}
