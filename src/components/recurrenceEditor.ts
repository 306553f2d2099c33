import { useEffect, useRef, useState } from 'react'
import {
  formFromText,
  textFromForm,
  type RecurrenceForm,
  type StartFacts,
} from '../calendar/recurrenceForm'

/**
 * The recurrence field's two views of one text: the form (when it can show the rule) or the text
 * itself, and the editor's changes written back to the field as RFC 5545 lines.
 */
export function useRecurrenceEditor(
  text: string,
  facts: StartFacts,
  setValue: (value: string) => void,
) {
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

  return { form, asText, setAsText, formRefused, setFormRefused, write, change, toForm }
}
