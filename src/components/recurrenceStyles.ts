import type { CSSProperties } from 'react'

/**
 * Inline styles on the admin theme's variables: the components ship in the plugin's bundle, and an
 * installing app's Next build would have to be told about a stylesheet inside a package.
 */
export const styles = {
  box: { display: 'flex', flexDirection: 'column', gap: 'calc(var(--base) * 0.5)' },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 'calc(var(--base) * 0.4)' },
  input: {
    fontFamily: 'var(--font-body)',
    fontSize: '1rem',
    color: 'var(--theme-elevation-800)',
    background: 'var(--theme-input-bg)',
    border: '1px solid var(--theme-elevation-150)',
    borderRadius: 'var(--style-radius-s)',
    padding: 'calc(var(--base) * 0.2) calc(var(--base) * 0.4)',
  },
  number: { width: '5em' },
  choice: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: 'calc(var(--base) * 0.2)',
    cursor: 'pointer',
  },
  legend: {
    color: 'var(--theme-elevation-500)',
    fontSize: '0.85rem',
    marginBottom: 'calc(var(--base) * 0.2)',
    padding: 0,
  },
  fieldset: { border: 0, margin: 0, padding: 0, minWidth: 0 },
  summary: {
    background: 'var(--theme-elevation-50)',
    borderRadius: 'var(--style-radius-s)',
    padding: 'calc(var(--base) * 0.4) calc(var(--base) * 0.6)',
    margin: 0,
  },
  note: { color: 'var(--theme-elevation-500)', fontSize: '0.85rem', margin: 0 },
  link: {
    background: 'none',
    border: 0,
    padding: 0,
    color: 'var(--theme-elevation-800)',
    textDecoration: 'underline',
    cursor: 'pointer',
    font: 'inherit',
  },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: 'calc(var(--base) * 0.2)',
  },
  badge: {
    fontSize: '0.75rem',
    borderRadius: 'var(--style-radius-s)',
    padding: '0 calc(var(--base) * 0.2)',
    background: 'var(--theme-warning-100)',
    color: 'var(--theme-warning-800)',
  },
} satisfies Record<string, CSSProperties>
