'use client'
import {
  FieldDescription,
  FieldError,
  FieldLabel,
  useField,
  useFormFields,
  useTranslation,
} from '@payloadcms/ui'
import type { TextareaFieldClientComponent } from 'payload'
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import {
  dateInputValue,
  defaultForm,
  formFromText,
  FREQUENCIES,
  ruleDateOfInput,
  startFacts,
  textFromForm,
  type Frequency,
  type RecurrenceForm,
} from '../calendar/recurrenceForm'
import { formatRuleDate, recurrenceSummary, weekdayNames } from '../calendar/recurrenceSummary'
import { WEEKDAYS, type Weekday } from '../calendar/recurrenceText'
import { useSiteZone } from './adminApi'
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
const POSITIONS: [number, string][] = [
  [1, '1st'],
  [2, '2nd'],
  [3, '3rd'],
  [4, '4th'],
  [-1, 'last'],
]
const MONTH_DAYS = [...Array.from({ length: 31 }, (_, index) => index + 1), -1]

/** A positive whole number typed into a number input, or 0 while it is empty or unfinished. */
const typedNumber = (value: string) => (/^\d+$/.test(value) ? Number(value) : 0)

function Choice({ children }: { children: ReactNode }) {
  return <label style={styles.choice}>{children}</label>
}

function Group({ legend, id, children }: { legend: string; id: string; children: ReactNode }) {
  return (
    <fieldset id={id} style={styles.fieldset}>
      <legend style={styles.legend}>{legend}</legend>
      <div style={styles.row}>{children}</div>
    </fieldset>
  )
}

/** Extra (RDATE) or excluded (EXDATE) dates: the list, each removable, and a date to add. */
function DateList(props: {
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

/**
 * The `recurrence` field in the admin (docs/api.md §16): a form for the common rules, writing RFC 5545
 * lines into the field, a text view for everything else, and the rule's readable summary as it is
 * edited. The text stays the field's value; the form is a view of it.
 */
export const RecurrenceField: TextareaFieldClientComponent = ({
  field,
  path: pathFromProps,
  readOnly,
}) => {
  const { i18n } = useTranslation()
  const locale = i18n.language
  const {
    path,
    value,
    setValue,
    showError,
    disabled: formDisabled,
  } = useField<string>({ potentiallyStalePath: pathFromProps })
  const disabled = Boolean(readOnly || formDisabled)
  const start = useFormFields(([fields]) => fields.start?.value) as string | undefined
  const eventZone = useFormFields(([fields]) => fields.timezone?.value) as string | undefined
  const inSeries = Boolean(useFormFields(([fields]) => fields.parent?.value))
  const siteZone = useSiteZone()
  const zone = eventZone || siteZone || 'UTC'
  const facts = useMemo(() => startFacts(start ? new Date(start) : new Date(), zone), [start, zone])
  const text = value ?? ''

  const [form, setForm] = useState<RecurrenceForm | null>(() => formFromText(text, facts))
  const [asText, setAsText] = useState(() => text.trim() !== '' && !form)
  const [formRefused, setFormRefused] = useState(false)
  // The text this editor wrote last: any other value came from elsewhere (the text view, a save, a
  // reload) and the form is read from it again; the editor's own writes keep the form as the editor
  // left it, an unfinished number or date included.
  const written = useRef(text)
  useEffect(() => {
    if (text === written.current) return
    written.current = text
    const read = formFromText(text, facts)
    setForm(read)
    if (text.trim() && !read) setAsText(true)
  }, [text, facts])

  const write = (next: RecurrenceForm | null) => {
    setForm(next)
    const nextText = next ? textFromForm(next) : ''
    written.current = nextText
    setValue(nextText)
  }
  const change = (patch: Partial<RecurrenceForm>) => form && write({ ...form, ...patch })

  const toForm = () => {
    const read = formFromText(text, facts)
    if (text.trim() && !read) {
      setFormRefused(true)
      return
    }
    setFormRefused(false)
    setForm(read)
    setAsText(false)
  }

  const shortDays = useMemo(() => weekdayNames(locale, 'short'), [locale])
  const longDays = useMemo(() => weekdayNames(locale, 'long'), [locale])
  const showDate = (date: string) => formatRuleDate(date, locale, zone)
  const summary = text.trim()
    ? (recurrenceSummary(text, locale, zone) ??
      'Not a rule this summary can read; it is checked when you save.')
    : 'Does not repeat'
  const label = typeof field.label === 'string' ? field.label : 'Recurrence'

  return (
    <div
      className="field-type recurrence-field"
      id={`field-${path.replace(/\./g, '__')}`}
      style={{ ...styles.box, marginBottom: 'var(--spacing-field)' }}
    >
      <FieldLabel label={label} path={path} as="span" />
      <FieldError path={path} showError={showError} />
      <p id="recurrence-summary" style={styles.summary} aria-live="polite">
        {summary}
      </p>
      {inSeries && !text.trim() && (
        <p style={styles.note}>
          This event is an occurrence of a series: a rule here splits the series at this event.
        </p>
      )}

      {asText ? (
        <textarea
          id="recurrence-text"
          aria-label="Recurrence rule (RFC 5545)"
          style={{ ...styles.input, fontFamily: 'var(--font-mono)', minHeight: '6em' }}
          value={text}
          disabled={disabled}
          onChange={(event) => {
            setFormRefused(false)
            setValue(event.target.value)
          }}
        />
      ) : (
        <>
          <div style={styles.row}>
            <label htmlFor="recurrence-frequency">Repeats</label>
            <select
              id="recurrence-frequency"
              style={styles.input}
              value={form?.frequency ?? ''}
              disabled={disabled}
              onChange={(event) =>
                write(
                  event.target.value ? defaultForm(event.target.value as Frequency, facts) : null,
                )
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
          {form && (
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

              {form.frequency === 'WEEKLY' && (
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
              )}

              {form.frequency === 'MONTHLY' && (
                <Group id="recurrence-monthly" legend="On">
                  <div style={styles.row}>
                    <Choice>
                      <input
                        type="radio"
                        name="recurrence-monthly"
                        value="day"
                        checked={form.monthly === 'day'}
                        disabled={disabled}
                        onChange={() => change({ monthly: 'day' })}
                      />
                      day
                    </Choice>
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
                    <Choice>
                      <input
                        type="radio"
                        name="recurrence-monthly"
                        value="position"
                        checked={form.monthly === 'position'}
                        disabled={disabled}
                        onChange={() => change({ monthly: 'position' })}
                      />
                      the
                    </Choice>
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
                      onChange={(event) =>
                        change({ positionWeekday: event.target.value as Weekday })
                      }
                    >
                      {WEEKDAYS.map((day) => (
                        <option key={day} value={day}>
                          {longDays[day]}
                        </option>
                      ))}
                    </select>
                  </div>
                </Group>
              )}

              <Group id="recurrence-end" legend="Ends">
                <div style={styles.box}>
                  <Choice>
                    <input
                      type="radio"
                      name="recurrence-end"
                      value="never"
                      checked={form.end === 'never'}
                      disabled={disabled}
                      onChange={() => change({ end: 'never' })}
                    />
                    never
                  </Choice>
                  <div style={styles.row}>
                    <Choice>
                      <input
                        type="radio"
                        name="recurrence-end"
                        value="count"
                        checked={form.end === 'count'}
                        disabled={disabled}
                        onChange={() => change({ end: 'count' })}
                      />
                      after
                    </Choice>
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
                    <Choice>
                      <input
                        type="radio"
                        name="recurrence-end"
                        value="until"
                        checked={form.end === 'until'}
                        disabled={disabled}
                        onChange={() => change({ end: 'until' })}
                      />
                      on
                    </Choice>
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
          )}
        </>
      )}

      <div style={styles.row}>
        <button
          type="button"
          id="recurrence-mode"
          style={styles.link}
          onClick={asText ? toForm : () => setAsText(true)}
        >
          {asText ? 'Use the form' : 'Edit as text'}
        </button>
      </div>
      {asText && formRefused && (
        <p style={styles.note}>This rule has parts the form cannot show: edit it as text.</p>
      )}
      <FieldDescription description={field.admin?.description} path={path} />
    </div>
  )
}
