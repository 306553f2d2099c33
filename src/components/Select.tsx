import type { CSSProperties, ReactNode } from 'react'

/**
 * A select of the admin's own components, its options as value and words; `children` are options
 * placed before them (a choice that means none).
 */
export function Select(props: {
  id: string
  label?: string
  style: CSSProperties
  value: string | number
  disabled?: boolean
  options: readonly { value: string | number; label: ReactNode }[]
  onChange: (value: string) => void
  children?: ReactNode
}) {
  return (
    <select
      id={props.id}
      aria-label={props.label}
      style={props.style}
      value={props.value}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.target.value)}
    >
      {props.children}
      {props.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  )
}
