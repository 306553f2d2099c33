import type { RecurrenceForm } from '../calendar/recurrenceForm'
import { WEEKDAYS, type Weekday } from '../calendar/recurrenceText'
import { Group, radioGroup, RadioRow, type RecurrencePartProps } from './RecurrenceInputs'

const POSITIONS = [
  { value: 1, label: '1st' },
  { value: 2, label: '2nd' },
  { value: 3, label: '3rd' },
  { value: 4, label: '4th' },
  { value: -1, label: 'last' },
]
const MONTH_DAYS = [...Array.from({ length: 31 }, (_, index) => index + 1), -1].map((day) => ({
  value: day,
  label: day === -1 ? 'last' : day,
}))
const MONTH_DAY = { id: 'recurrence-month-day', label: 'Day of the month', options: MONTH_DAYS }
const POSITION = {
  id: 'recurrence-position',
  label: 'Which weekday of the month',
  options: POSITIONS,
}

/** A monthly rule's day: a day of the month, or a weekday's position in it (the 2nd Tuesday). */
export function RecurrenceMonthly({
  form,
  disabled,
  change,
  longDays,
}: RecurrencePartProps & { longDays: Record<Weekday, string> }) {
  const option = radioGroup('recurrence-monthly', form.monthly, disabled, (monthly) =>
    change({ monthly }),
  )
  /** A select showing a part of the form, and writing what is chosen back to it. */
  const bind = <K extends 'monthDay' | 'position' | 'positionWeekday'>(
    key: K,
    read: (value: string) => RecurrenceForm[K],
  ) => ({ value: form[key], onChange: (value: string) => change({ [key]: read(value) }) })
  const weekdays = WEEKDAYS.map((day) => ({ value: day, label: longDays[day] }))
  return (
    <Group id="recurrence-monthly" legend="On">
      <RadioRow
        option={option('day')}
        words="day"
        selects={[{ ...MONTH_DAY, ...bind('monthDay', Number) }]}
      />
      <RadioRow
        option={option('position')}
        words="the"
        selects={[
          { ...POSITION, ...bind('position', Number) },
          {
            id: 'recurrence-position-weekday',
            label: 'Weekday',
            options: weekdays,
            ...bind('positionWeekday', (day) => day as Weekday),
          },
        ]}
      />
    </Group>
  )
}
