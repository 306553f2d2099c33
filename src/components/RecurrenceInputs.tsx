import { useState, type ReactNode } from 'react'
import { ruleDateOfInput, type RecurrenceForm } from '../calendar/recurrenceForm'
import { styles } from './recurrenceStyles'

/** What a part of the recurrence form is given: the form, whether it is locked, and how to change it. */
export type RecurrencePartProps = {
  form: RecurrenceForm
  disabled: boolean
  change: (patch: Partial<RecurrenceForm>) => void
}

/** A positive whole number typed into a number input, or 0 while it is empty or unfinished. */
export const typedNumber = (value: string) => (/^\d+$/.test(value) ? Number(value) : 0)

export function Choice({ children }: { children: ReactNode }) {
  return <label style={styles.choice}>{children}</label>
}

/** One option of a group of radio buttons, its words after it. */
export function Radio({
  name,
  value,
  checked,
  disabled,
  pick,
  children,
}: {
  name: string
  value: string
  checked: boolean
  disabled: boolean
  pick: () => void
  children: ReactNode
}) {
  return (
    <Choice>
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={pick}
      />
      {children}
    </Choice>
  )
}

export function Group({
  legend,
  id,
  children,
}: {
  legend: string
  id: string
  children: ReactNode
}) {
  return (
    <fieldset id={id} style={styles.fieldset}>
      <legend style={styles.legend}>{legend}</legend>
      <div style={styles.row}>{children}</div>
    </fieldset>
  )
}

/** Extra (RDATE) or excluded (EXDATE) dates: the list, each removable, and a date to add. */
export function DateList(props: {
  id: string
  legend: string
  dates: string[]
  onChange: (dates: string[]) => void
  disabled: boolean
  show: (date: string) => string
}) {
  const [adding, setAdding] = useState('')
  const add = () => {
    const date = ruleDateOfInput(adding)
    if (date && !props.dates.includes(date)) props.onChange([...props.dates, date].sort())
    setAdding('')
  }
  return (
    <fieldset id={props.id} style={styles.fieldset}>
      <legend style={styles.legend}>{props.legend}</legend>
      {props.dates.length > 0 && (
        <ul style={styles.list}>
          {props.dates.map((date) => (
            <li key={date} style={styles.row}>
              <span>{props.show(date)}</span>
              <button
                type="button"
                style={styles.link}
                disabled={props.disabled}
                aria-label={`Remove ${props.show(date)}`}
                onClick={() => props.onChange(props.dates.filter((other) => other !== date))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div style={styles.row}>
        <input
          type="date"
          style={styles.input}
          value={adding}
          disabled={props.disabled}
          aria-label={`${props.legend}: date to add`}
          onChange={(event) => setAdding(event.target.value)}
        />
        <button
          type="button"
          style={styles.link}
          disabled={props.disabled || !adding}
          onClick={add}
        >
          Add
        </button>
      </div>
    </fieldset>
  )
}
