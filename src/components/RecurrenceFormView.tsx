import {
  defaultForm,
  FREQUENCIES,
  type Frequency,
  type RecurrenceForm,
  type StartFacts,
} from '../calendar/recurrenceForm'
import { WEEKDAYS, type Weekday } from '../calendar/recurrenceText'
import { RecurrenceEnd } from './RecurrenceEnd'
import { Choice, DateList, Group, typedNumber, type RecurrencePartProps } from './RecurrenceInputs'
import { RecurrenceMonthly } from './RecurrenceMonthly'
import { styles } from './recurrenceStyles'

const FREQUENCY_LABELS: Record<Frequency, string> = {
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
  YEARLY: 'Yearly',
}
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
      <div style={styles.row}>
        <label htmlFor="recurrence-interval">Every</label>
        <input
          id="recurrence-interval"
          type="number"
          min={1}
          style={{ ...styles.input, ...styles.number }}
          value={form.interval || ''}
          disabled={disabled}
          onChange={(event) => change({ interval: typedNumber(event.target.value) })}
        />
        <span>{UNITS[form.frequency][form.interval === 1 ? 0 : 1]}</span>
      </div>

      {form.frequency === 'WEEKLY' && <RecurrenceWeekdays {...props} />}

      {form.frequency === 'MONTHLY' && <RecurrenceMonthly {...props} />}

      <RecurrenceEnd {...props} />

      <DateList
        id="recurrence-rdates"
        legend="Extra dates"
        dates={form.rdates}
        disabled={disabled}
        show={showDate}
        onChange={(rdates) => change({ rdates })}
      />
      <DateList
        id="recurrence-exdates"
        legend="Excluded dates"
        dates={form.exdates}
        disabled={disabled}
        show={showDate}
        onChange={(exdates) => change({ exdates })}
      />
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
      <div style={styles.row}>
        <label htmlFor="recurrence-frequency">Repeats</label>
        <select
          id="recurrence-frequency"
          style={styles.input}
          value={form?.frequency ?? ''}
          disabled={parts.disabled}
          onChange={(event) =>
            write(event.target.value ? defaultForm(event.target.value as Frequency, facts) : null)
          }
        >
          <option value="">Does not repeat</option>
          {FREQUENCIES.map((frequency) => (
            <option key={frequency} value={frequency}>
              {FREQUENCY_LABELS[frequency]}
            </option>
          ))}
        </select>
      </div>
      {form && <RecurrenceRuleParts form={form} {...parts} />}
    </>
  )
}
