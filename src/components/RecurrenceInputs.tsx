import { useState, type ComponentProps, type ReactNode } from 'react'
import { ruleDateOfInput, type RecurrenceForm } from '../calendar/recurrenceForm'
import { styles } from './recurrenceStyles'
import { Select } from './Select'

/** What a part of the recurrence form is given: the form, whether it is locked, and how to change it. */
export type RecurrencePartProps = {
  form: RecurrenceForm
  disabled: boolean
  change: (patch: Partial<RecurrenceForm>) => void
}

/** A positive whole number typed into a number input, or 0 while it is empty or unfinished. */
const typedNumber = (value: string) => (/^\d+$/.test(value) ? Number(value) : 0)

/** A count of the rule (its interval, its occurrences): empty while 0, so that it can be retyped. */
export function CountInput(props: {
  id: string
  label?: string
  value: number
  disabled: boolean
  onChange: (count: number) => void
}) {
  return (
    <input
      id={props.id}
      type="number"
      min={1}
      aria-label={props.label}
      style={{ ...styles.input, ...styles.number }}
      value={props.value || ''}
      disabled={props.disabled}
      onChange={(event) => props.onChange(typedNumber(event.target.value))}
    />
  )
}

export function Choice({ children }: { children: ReactNode }) {
  return <label style={styles.choice}>{children}</label>
}

/** One option of a group of radio buttons, as `radioGroup` makes it. */
type RadioOption = {
  name: string
  value: string
  checked: boolean
  disabled: boolean
  pick: () => void
}

/** The options of a group of radio buttons named `name`, `chosen` the one checked. */
export const radioGroup =
  <T extends string>(name: string, chosen: T, disabled: boolean, pick: (value: T) => void) =>
  (value: T): RadioOption => ({
    name,
    value,
    checked: chosen === value,
    disabled,
    pick: () => pick(value),
  })

/** One option of a group of radio buttons, its words after it. */
export function Radio({
  name,
  value,
  checked,
  disabled,
  pick,
  children,
}: RadioOption & { children: ReactNode }) {
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

/** A select that a radio button enables: what sets it apart from the others. */
type OptionSelect = Omit<ComponentProps<typeof Select>, 'style' | 'disabled'>

/**
 * A radio button in a row with the inputs it enables (the day of "on day 12"): selects, which are
 * locked while another button is chosen, or inputs of their own as children.
 */
export function RadioRow({
  option,
  words,
  selects = [],
  children,
}: {
  option: RadioOption
  words: string
  selects?: OptionSelect[]
  children?: ReactNode
}) {
  return (
    <div style={styles.row}>
      <Radio {...option}>{words}</Radio>
      {selects.map((select) => (
        <Select
          key={select.id}
          style={styles.input}
          disabled={option.disabled || !option.checked}
          {...select}
        />
      ))}
      {children}
    </div>
  )
}

/** A row led by the label of its input. */
export function LabelledRow(props: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    <div style={styles.row}>
      <label htmlFor={props.htmlFor}>{props.label}</label>
      {props.children}
    </div>
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
