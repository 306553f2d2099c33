import { dateInputValue, ruleDateOfInput } from '../calendar/recurrenceForm'
import {
  CountInput,
  Group,
  Radio,
  radioGroup,
  RadioRow,
  type RecurrencePartProps,
} from './RecurrenceInputs'
import { styles } from './recurrenceStyles'

/** When the rule ends: never, after a number of occurrences, or on a day. */
export function RecurrenceEnd({ form, disabled, change }: RecurrencePartProps) {
  const option = radioGroup('recurrence-end', form.end, disabled, (end) => change({ end }))
  return (
    <Group id="recurrence-end" legend="Ends">
      <div style={styles.box}>
        <Radio {...option('never')}>never</Radio>
        <RadioRow option={option('count')} words="after">
          <CountInput
            id="recurrence-count"
            label="Number of occurrences"
            value={form.count}
            disabled={disabled || form.end !== 'count'}
            onChange={(count) => change({ count })}
          />
          <span>occurrences</span>
        </RadioRow>
        <RadioRow option={option('until')} words="on">
          <input
            id="recurrence-until"
            type="date"
            aria-label="Last day"
            style={styles.input}
            value={dateInputValue(form.until)}
            disabled={disabled || form.end !== 'until'}
            onChange={(event) => change({ until: ruleDateOfInput(event.target.value) })}
          />
        </RadioRow>
      </div>
    </Group>
  )
}
