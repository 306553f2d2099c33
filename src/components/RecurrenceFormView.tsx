import {
  defaultForm,
  FREQUENCIES,
  type Frequency,
  type RecurrenceForm,
  type StartFacts,
} from '../calendar/recurrenceForm'
import { WEEKDAYS, type Weekday } from '../calendar/recurrenceText'
import { RecurrenceEnd } from './RecurrenceEnd'
import {
  Choice,
  CountInput,
  DateList,
  Group,
  LabelledRow,
  type RecurrencePartProps,
} from './RecurrenceInputs'
import { RecurrenceMonthly } from './RecurrenceMonthly'
import { styles } from './recurrenceStyles'
import { Select } from './Select'

const FREQUENCY_LABELS: Record<Frequency, string> = {
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
  YEARLY: 'Yearly',
}
const FREQUENCY_OPTIONS = FREQUENCIES.map((frequency) => ({
  value: frequency,
  label: FREQUENCY_LABELS[frequency],
}))
/** The rule's two lists of dates, in the order the form shows them. */
const DATE_LISTS = [
  { key: 'rdates', id: 'recurrence-rdates', legend: 'Extra dates' },
  { key: 'exdates', id: 'recurrence-exdates', legend: 'Excluded dates' },
] as const
const UNITS: Record<Frequency, [string, string]> = {
  DAILY: ['day', 'days'],
  WEEKLY: ['week', 'weeks'],
  MONTHLY: ['month', 'months'],
  YEARLY: ['year', 'years'],
}

type DayNames = Record<Weekday, string>

/** A weekly rule's days; none chosen means the start's weekday. */
function RecurrenceWeekdays({
  form,
  disabled,
  change,
  shortDays,
  longDays,
}: RecurrencePartProps & { shortDays: DayNames; longDays: DayNames }) {
  return (
    <Group
      id="recurrence-weekdays"
      legend={form.weekdays.length ? 'On' : 'On (none chosen: the start’s weekday)'}
    >
      {WEEKDAYS.map((day) => (
        <Choice key={day}>
          <input
            type="checkbox"
            value={day}
            title={longDays[day]}
            checked={form.weekdays.includes(day)}
            disabled={disabled}
            onChange={(event) =>
              change({
                weekdays: event.target.checked
                  ? [...form.weekdays, day]
                  : form.weekdays.filter((other) => other !== day),
              })
            }
          />
          {shortDays[day]}
        </Choice>
      ))}
    </Group>
  )
}

/** The rule's parts once it repeats: interval, days, end, extra and excluded dates. */
function RecurrenceRuleParts(
  props: RecurrencePartProps & {
    shortDays: DayNames
    longDays: DayNames
    showDate: (date: string) => string
  },
) {
  const { form, disabled, change, showDate } = props
  return (
    <>
      <LabelledRow label="Every" htmlFor="recurrence-interval">
        <CountInput
          id="recurrence-interval"
          value={form.interval}
          disabled={disabled}
          onChange={(interval) => change({ interval })}
        />
        <span>{UNITS[form.frequency][form.interval === 1 ? 0 : 1]}</span>
      </LabelledRow>

      {form.frequency === 'WEEKLY' && <RecurrenceWeekdays {...props} />}

      {form.frequency === 'MONTHLY' && <RecurrenceMonthly {...props} />}

      <RecurrenceEnd {...props} />

      {DATE_LISTS.map(({ key, id, legend }) => (
        <DateList
          key={key}
          id={id}
          legend={legend}
          dates={form[key]}
          disabled={disabled}
          show={showDate}
          onChange={(dates) => change({ [key]: dates })}
        />
      ))}
    </>
  )
}

/** The form view of the rule: how often it repeats, then, if it does, its parts. */
export function RecurrenceFormView({
  form,
  facts,
  write,
  ...parts
}: Omit<RecurrencePartProps, 'form'> & {
  form: RecurrenceForm | null
  facts: StartFacts
  write: (next: RecurrenceForm | null) => void
  shortDays: DayNames
  longDays: DayNames
  showDate: (date: string) => string
}) {
  return (
    <>
      <LabelledRow label="Repeats" htmlFor="recurrence-frequency">
        <Select
          id="recurrence-frequency"
          style={styles.input}
          value={form?.frequency ?? ''}
          disabled={parts.disabled}
          options={FREQUENCY_OPTIONS}
          onChange={(frequency) =>
            write(frequency ? defaultForm(frequency as Frequency, facts) : null)
          }
        >
          <option value="">Does not repeat</option>
        </Select>
      </LabelledRow>
      {form && <RecurrenceRuleParts form={form} {...parts} />}
    </>
  )
}
