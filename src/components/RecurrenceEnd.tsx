import { dateInputValue, ruleDateOfInput } from '../calendar/recurrenceForm'
import { Group, Radio, typedNumber, type RecurrencePartProps } from './RecurrenceInputs'
import { styles } from './recurrenceStyles'

/** When the rule ends: never, after a number of occurrences, or on a day. */
export function RecurrenceEnd({ form, disabled, change }: RecurrencePartProps) {
  return (
    <Group id="recurrence-end" legend="Ends">
      <div style={styles.box}>
        <Radio
          name="recurrence-end"
          value="never"
          checked={form.end === 'never'}
          disabled={disabled}
          pick={() => change({ end: 'never' })}
        >
          never
        </Radio>
        <div style={styles.row}>
          <Radio
            name="recurrence-end"
            value="count"
            checked={form.end === 'count'}
            disabled={disabled}
            pick={() => change({ end: 'count' })}
          >
            after
          </Radio>
          <input
            id="recurrence-count"
            type="number"
            min={1}
            aria-label="Number of occurrences"
            style={{ ...styles.input, ...styles.number }}
            value={form.count || ''}
            disabled={disabled || form.end !== 'count'}
            onChange={(event) => change({ count: typedNumber(event.target.value) })}
          />
          <span>occurrences</span>
        </div>
        <div style={styles.row}>
          <Radio
            name="recurrence-end"
            value="until"
            checked={form.end === 'until'}
            disabled={disabled}
            pick={() => change({ end: 'until' })}
          >
            on
          </Radio>
          <input
            id="recurrence-until"
            type="date"
            aria-label="Last day"
            style={styles.input}
            value={dateInputValue(form.until)}
            disabled={disabled || form.end !== 'until'}
            onChange={(event) => change({ until: ruleDateOfInput(event.target.value) })}
          />
        </div>
      </div>
    </Group>
  )
}
