'use client'
import {
  FieldDescription,
  FieldError,
  FieldLabel,
  useFormFields,
  useTranslation,
} from '@payloadcms/ui'
import type { TextareaFieldClientComponent } from 'payload'
import { useMemo } from 'react'
import { startFacts } from '../calendar/recurrenceForm'
import { formatRuleDate, recurrenceSummary, weekdayNames } from '../calendar/recurrenceSummary'
import { useEventField } from './eventField'
import { useRecurrenceEditor } from './recurrenceEditor'
import { RecurrenceFormView } from './RecurrenceFormView'
import { styles } from './recurrenceStyles'

/** The switch between the form and the text, and why the form refused a rule. */
function ModeSwitch({ editor }: { editor: ReturnType<typeof useRecurrenceEditor> }) {
  return (
    <>
      <div style={styles.row}>
        <button
          type="button"
          id="recurrence-mode"
          style={styles.link}
          onClick={editor.asText ? editor.toForm : () => editor.setAsText(true)}
        >
          {editor.asText ? 'Use the form' : 'Edit as text'}
        </button>
      </div>
      {editor.asText && editor.formRefused && (
        <p style={styles.note}>This rule has parts the form cannot show: edit it as text.</p>
      )}
    </>
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
  const own = useEventField(pathFromProps, readOnly)
  const { path, value, setValue, showError } = own
  const disabled = own.locked
  const start = useFormFields(([fields]) => fields.start?.value) as string | undefined
  const inSeries = Boolean(useFormFields(([fields]) => fields.parent?.value))
  // The summary reads the rule in UTC until the site's zone is known.
  const zone = own.zone || 'UTC'
  const facts = useMemo(() => startFacts(start ? new Date(start) : new Date(), zone), [start, zone])
  const text = value ?? ''
  const editor = useRecurrenceEditor(text, facts, setValue)

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

      {editor.asText ? (
        <textarea
          id="recurrence-text"
          aria-label="Recurrence rule (RFC 5545)"
          style={{ ...styles.input, fontFamily: 'var(--font-mono)', minHeight: '6em' }}
          value={text}
          disabled={disabled}
          onChange={(event) => {
            editor.setFormRefused(false)
            setValue(event.target.value)
          }}
        />
      ) : (
        <RecurrenceFormView
          form={editor.form}
          facts={facts}
          disabled={disabled}
          write={editor.write}
          change={editor.change}
          shortDays={shortDays}
          longDays={longDays}
          showDate={showDate}
        />
      )}

      <ModeSwitch editor={editor} />
      <FieldDescription description={field.admin?.description} path={path} />
    </div>
  )
}
