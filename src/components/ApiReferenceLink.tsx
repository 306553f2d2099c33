import type { Payload } from 'payload'
import { calendarRuntime } from '../options'

/** A link under the admin's navigation to the namespace's interactive API reference. */
export function ApiReferenceLink({ payload }: { payload: Payload }) {
  const href = `${payload.config.routes.api}/${calendarRuntime(payload.config).namespace}/reference`
  return (
    <a
      className="nav__link"
      id="nav-api-reference"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
    >
      <span className="nav__link-label">API reference</span>
    </a>
  )
}
