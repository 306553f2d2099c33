import { WEEKDAYS, type Weekday } from '../calendar/recurrenceText'
import { Group, Radio, type RecurrencePartProps } from './RecurrenceInputs'
import { styles } from './recurrenceStyles'

const POSITIONS: [number, string][] = [
  [1, '1st'],
  [2, '2nd'],
  [3, '3rd'],
  [4, '4th'],
  [-1, 'last'],
]
const MONTH_DAYS = [...Array.from({ length: 31 }, (_, index) => index + 1), -1]

/** A monthly rule's day: a day of the month, or a weekday's position in it (the 2nd Tuesday). */
export function RecurrenceMonthly({
  form,
  disabled,
  change,
  longDays,
}: RecurrencePartProps & { longDays: Record<Weekday, string> }) {
  return (
    <Group id="recurrence-monthly" legend="On">
      <div style={styles.row}>
        <Radio
          name="recurrence-monthly"
          value="day"
          checked={form.monthly === 'day'}
          disabled={disabled}
          pick={() => change({ monthly: 'day' })}
        >
          day
        </Radio>
        <select
          id="recurrence-month-day"
          aria-label="Day of the month"
          style={styles.input}
          value={form.monthDay}
          disabled={disabled || form.monthly !== 'day'}
          onChange={(event) => change({ monthDay: Number(event.target.value) })}
        >
          {MONTH_DAYS.map((day) => (
            <option key={day} value={day}>
              {day === -1 ? 'last' : day}
            </option>
          ))}
        </select>
      </div>
      <div style={styles.row}>
        <Radio
          name="recurrence-monthly"
          value="position"
          checked={form.monthly === 'position'}
          disabled={disabled}
          pick={() => change({ monthly: 'position' })}
        >
          the
        </Radio>
        <select
          id="recurrence-position"
          aria-label="Which weekday of the month"
          style={styles.input}
          value={form.position}
          disabled={disabled || form.monthly !== 'position'}
          onChange={(event) => change({ position: Number(event.target.value) })}
        >
          {POSITIONS.map(([position, name]) => (
            <option key={position} value={position}>
              {name}
            </option>
          ))}
        </select>
        <select
          id="recurrence-position-weekday"
          aria-label="Weekday"
          style={styles.input}
          value={form.positionWeekday}
          disabled={disabled || form.monthly !== 'position'}
          onChange={(event) => change({ positionWeekday: event.target.value as Weekday })}
        >
          {WEEKDAYS.map((day) => (
            <option key={day} value={day}>
              {longDays[day]}
            </option>
          ))}
        </select>
      </div>
    </Group>
  )
}
