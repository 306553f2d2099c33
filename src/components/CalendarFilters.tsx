import type { calendarChoices } from './calendarChoices'
import type { Option } from './calendarReads'
import { RECORD_FILTERS, type CalendarMove, type CalendarQuery } from './calendarQuery'
import { calendarStyles as styles } from './calendarStyles'
import { Select } from './Select'

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
      <Select
        id={props.id}
        style={styles.select}
        value={props.value ?? ''}
        options={props.options}
        onChange={(value) => props.onChange(value || null)}
      >
        {props.all !== undefined && <option value="">{props.all}</option>}
      </Select>
    </label>
  )
}

/** The record filters, the status and, when the app has several, the language. */
export function CalendarFilters({
  query,
  locale,
  options,
  choices: { statuses, languages },
  go,
}: {
  query: CalendarQuery
  locale: string
  options: Partial<Record<string, Option[]>>
  choices: Pick<ReturnType<typeof calendarChoices>, 'statuses' | 'languages'>
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
