import type { Option } from './calendarReads'
import { RECORD_FILTERS, type CalendarMove, type CalendarQuery } from './calendarQuery'
import { calendarStyles as styles } from './calendarStyles'

/** A select of the filters; `all`, when given, is the choice that filters nothing. */
function Filter(props: {
  id: string
  label: string
  value: string | null
  options: Option[]
  all?: string
  onChange: (value: string | null) => void
}) {
  return (
    <label style={styles.filter}>
      {props.label}
      <select
        id={props.id}
        style={styles.select}
        value={props.value ?? ''}
        onChange={(event) => props.onChange(event.target.value || null)}
      >
        {props.all !== undefined && <option value="">{props.all}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The record filters, the status and, when the app has several, the language. */
export function CalendarFilters({
  query,
  locale,
  options,
  statuses,
  languages,
  go,
}: {
  query: CalendarQuery
  locale: string
  options: Partial<Record<string, Option[]>>
  statuses: Option[]
  languages: Option[]
  go: CalendarMove
}) {
  return (
    <div style={styles.filters}>
      {RECORD_FILTERS.map((filter) => (
        <Filter
          key={filter.param}
          id={`calendar-${filter.param}`}
          label={filter.label}
          value={query[filter.param]}
          options={
            options[filter.collection] ??
            (query[filter.param]
              ? [{ value: query[filter.param]!, label: `#${query[filter.param]}` }]
              : [])
          }
          all="All"
          onChange={(value) => go({ [filter.param]: value })}
        />
      ))}
      <Filter
        id="calendar-status"
        label="Status"
        value={query.status}
        options={statuses}
        all="All but the trash"
        onChange={(status) => go({ status })}
      />
      {languages.length > 1 && (
        <Filter
          id="calendar-language"
          label="Language"
          value={locale}
          options={languages}
          onChange={(value) => value && go({}, value)}
        />
      )}
    </div>
  )
}
