import { escape, ICalEvent } from 'ical-generator'

/**
 * A VEVENT whose featured image, its ATTACH, is also its RFC 7986 IMAGE, which calendar applications
 * show with the event. ical-generator 10 writes ATTACH but has no IMAGE, and its `x()` takes `X-` names
 * only: the line is added to its text, escaped by its own `escape`.
 */
export class ImagedEvent extends ICalEvent {
  toString(): string {
    const text = super.toString()
    const [image] = this.attachments()
    return image ? text.replace(/END:VEVENT\r\n$/, `IMAGE;VALUE=URI;DISPLAY=BADGE:${escape(image, false)}\r\nEND:VEVENT\r\n`) : text
  }
}

/** An image's URL as a URI value: its commas and semicolons percent-encoded, so that no TEXT escaping alters it. */
export function uriValue(url: string): string {
  return url.replace(/,/g, '%2C').replace(/;/g, '%3B')
}
