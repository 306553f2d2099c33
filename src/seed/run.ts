/** `npm run seed`: demo content into the service's database (run through the launcher). */
import config from '../../payload.config'
import { getPayload } from 'payload'
import { seedDemoData } from './seed'

const payload = await getPayload({ config })
const result = await seedDemoData(payload)
console.log(
  result.skipped
    ? 'The calendar already has events: nothing seeded.'
    : `Seeded ${result.created} events.`,
)
await payload.destroy()
process.exit(0)
