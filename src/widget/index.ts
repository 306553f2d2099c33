/** The widget's script: defines `<cal-events>` once, however many times the page includes it. */
import { CalEvents } from './element'

if (!customElements.get('cal-events')) customElements.define('cal-events', CalEvents)
