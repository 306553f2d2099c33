import type { TextField } from 'payload'
import { validateWebUrl } from '../../calendar/webUrl'

/**
 * The website of an event, venue or organizer: an http(s) URL or empty, checked here so that every door
 * (the namespace, Payload's REST and GraphQL, the admin, imports) is held to the rule (docs/api.md §6.6).
 */
export function websiteField(): TextField {
  return {
    name: 'website',
    type: 'text',
    validate: validateWebUrl,
    admin: { description: 'An http(s) URL, such as https://example.org/.' },
  }
}
