import {
  readCategories,
  readList,
  readPeriod,
  readSeries,
  type CalendarEvent,
  type EventPage,
  type Filters,
} from './api'
import { monthTitle, dayTitle, rangeTitle } from './format'
import { googleLink, icsLink, outlookLink, subscriptionLink } from './links'
import { isRightToLeft, languageTag } from '../i18n/languages'
import { languageOf } from './locale'
import { widgetMessages } from './messages'
import { periodOf, shift, today, VIEWS, type View } from './period'
import { STYLES } from './styles'
import {
  categoryOptions,
  daysView,
  detailView,
  isSeries,
  listView,
  monthView,
  shellView,
  type ViewContext,
} from './views'

const ATTRIBUTES = [
  'root',
  'view',
  'lang',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'search',
  'per-page',
  'week-start',
  'date',
  'page',
] as const
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const DAY = /^\d{4}-\d{2}-\d{2}$/

let sheet: CSSStyleSheet | undefined

/** One stylesheet for every calendar on the page. */
function styleSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet()
    sheet.replaceSync(STYLES)
  }
  return sheet
}

function weekStartOf(value: string | null): number {
  const text = (value ?? '').trim().toLowerCase()
  if (/^[0-6]$/.test(text)) return Number(text)
  if (text === '7') return 0
  const named = WEEKDAYS.findIndex((name) => name.startsWith(text.slice(0, 3)) && text.length >= 2)
  return named >= 0 ? named : 1
}

/** `<cal-events>`: a calendar of any site speaking the namespace, in a shadow root without a slot, so the page's fallback inside it disappears. */
export class CalEvents extends HTMLElement {
  static observedAttributes = [...ATTRIBUTES]

  private readonly shadow: ShadowRoot
  private view: View = 'month'
  private day = today()
  private page = 1
  private search = ''
  private category = ''
  private featured = false
  private events = new Map<number, CalendarEvent>()
  private loading?: AbortController
  private opener?: string
  private resetting = false

  constructor() {
    super()
    this.shadow = this.attachShadow({ mode: 'open' })
    this.shadow.adoptedStyleSheets = [styleSheet()]
    this.shadow.addEventListener('click', (event) => this.onClick(event))
    this.shadow.addEventListener('submit', (event) => {
      event.preventDefault()
      this.applyFilters()
    })
    this.shadow.addEventListener('change', (event) => {
      if ((event.target as HTMLElement).matches('select, input[type="checkbox"]'))
        this.applyFilters()
    })
    this.shadow.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Escape' && this.shadow.querySelector('.detail'))
        this.closeDetail()
    })
  }

  connectedCallback(): void {
    this.scheduleReset()
  }

  attributeChangedCallback(): void {
    this.scheduleReset()
  }

  /**
   * An element upgraded in the page (the script loads after the markup) hears of each attribute,
   * then of its connection, in one go: it reads the namespace once for all of them.
   */
  private scheduleReset(): void {
    if (this.resetting) return
    this.resetting = true
    queueMicrotask(() => {
      this.resetting = false
      if (this.isConnected) this.reset()
    })
  }

  private get root(): string {
    return this.getAttribute('root') ?? `${location.origin}/api/cal/events/v1`
  }

  private get language() {
    return languageOf(
      this.getAttribute('lang') ??
        this.parentElement?.closest('[lang]')?.getAttribute('lang') ??
        null,
    )
  }

  private get context(): ViewContext {
    return { messages: widgetMessages(this.language), locale: languageTag(this.language) }
  }

  private get filters(): Filters {
    const attribute = (name: string) => this.getAttribute(name) ?? undefined
    return {
      categories: this.category || attribute('categories'),
      tags: attribute('tags'),
      venue: attribute('venue'),
      organizer: attribute('organizer'),
      featured: this.featured ? '1' : attribute('featured'),
      search: this.search || undefined,
      lang: this.language,
    }
  }

  private get perPage(): number {
    const value = Number(this.getAttribute('per-page'))
    return Number.isInteger(value) && value > 0 ? Math.min(value, 50) : 10
  }

  /** The state the attributes give, and a fresh shell. */
  private reset(): void {
    const view = this.getAttribute('view') as View
    this.view = VIEWS.includes(view) ? view : 'month'
    const date = this.getAttribute('date') ?? ''
    this.day = DAY.test(date) ? date : today()
    const page = Number(this.getAttribute('page'))
    this.page = Number.isSafeInteger(page) && page > 0 ? page : 1
    this.search = this.getAttribute('search') ?? ''
    this.category = ''
    this.featured = ['1', 'true'].includes(this.getAttribute('featured') ?? '')
    const language = this.language
    this.shadow.innerHTML = shellView(this.context, {
      view: this.view,
      language: languageTag(language),
      rtl: isRightToLeft(language),
      search: this.search,
      featured: this.featured,
      subscription: subscriptionLink(this.root, this.filters),
    })
    void this.loadCategories()
    void this.load()
  }

  private async loadCategories(): Promise<void> {
    const select = this.shadow.querySelector<HTMLSelectElement>('select[name="category"]')
    if (!select || this.getAttribute('categories')) return
    try {
      const terms = await readCategories(this.root, this.language)
      if (!terms.length) return
      select.innerHTML = categoryOptions(this.context, terms, this.category)
      select.closest('label')!.hidden = false
    } catch {
      // No choice of category then; the calendar itself still works.
    }
  }

  private applyFilters(): void {
    const form = this.shadow.querySelector('form')!
    this.search = (form.elements.namedItem('search') as HTMLInputElement).value.trim()
    this.category = (form.elements.namedItem('category') as HTMLSelectElement).value
    this.featured = (form.elements.namedItem('featured') as HTMLInputElement).checked
    this.page = 1
    this.shadow.querySelector<HTMLAnchorElement>('[data-link="subscribe"]')!.href =
      subscriptionLink(this.root, this.filters)
    void this.load()
  }

  private onClick(event: Event): void {
    const target = event.target as HTMLElement
    const action = target.closest<HTMLElement>('[data-action]')?.dataset.action
    const view = target.closest<HTMLElement>('[data-view]')?.dataset.view as View | undefined
    const opened = target.closest<HTMLElement>('[data-event]')?.dataset.event
    if (opened) return void this.openDetail(Number(opened))
    if (view) {
      this.view = view
      this.page = 1
      for (const button of this.shadow.querySelectorAll<HTMLElement>('[data-view]'))
        button.setAttribute('aria-pressed', String(button.dataset.view === view))
      return void this.load()
    }
    if (action === 'close') return this.closeDetail()
    if (action === 'previous' || action === 'next')
      this.day = shift(this.view, this.day, action === 'next' ? 1 : -1)
    else if (action === 'today') this.day = today()
    else if (action === 'page-previous' || action === 'page-next')
      this.page += action === 'page-next' ? 1 : -1
    else return
    if (action === 'previous' || action === 'next' || action === 'today') this.page = 1
    void this.load()
  }

  private periodTitle(): string {
    const { locale } = this.context
    if (this.view === 'month') return monthTitle(this.day, locale)
    if (this.view === 'week') {
      const period = periodOf('week', this.day, weekStartOf(this.getAttribute('week-start')))
      return rangeTitle(period.first, period.last, locale)
    }
    return dayTitle(this.day, locale)
  }

  private async load(): Promise<void> {
    this.loading?.abort()
    const loading = new AbortController()
    this.loading = loading
    const { messages } = this.context
    const status = this.shadow.querySelector('.status')!
    const body = this.shadow.querySelector('.body')!
    this.setAttribute('aria-busy', 'true')
    status.textContent = messages.loading
    this.shadow.querySelector('.title')!.textContent = this.periodTitle()
    try {
      const period = periodOf(this.view, this.day, weekStartOf(this.getAttribute('week-start')))
      const reading = { root: this.root, filters: this.filters, signal: loading.signal }
      const answer: EventPage =
        this.view === 'list'
          ? await readList({ ...reading, from: this.day }, this.page, this.perPage)
          : await readPeriod({ ...reading, from: period.first }, period.last)
      if (loading.signal.aborted) return
      this.events = new Map(answer.events.map((event) => [event.id, event]))
      const now = today()
      body.innerHTML =
        this.view === 'month'
          ? monthView(this.context, period, this.day, answer.events, now)
          : this.view === 'list'
            ? listView(this.context, answer, this.page)
            : daysView(this.context, period, answer.events, now)
      status.textContent =
        this.view !== 'list' && answer.events.length < answer.total
          ? messages.leftOut(answer.events.length, answer.total)
          : ''
    } catch (error) {
      if (loading.signal.aborted) return
      body.innerHTML = ''
      status.textContent = `${messages.failed}: ${error instanceof Error ? error.message : String(error)}`
    }
    this.setAttribute('aria-busy', 'false')
    this.dispatchEvent(
      new CustomEvent('cal-events:render', {
        bubbles: true,
        detail: { view: this.view, events: this.events.size },
      }),
    )
  }

  private async openDetail(id: number): Promise<void> {
    const event = this.events.get(id)
    if (!event) return
    this.opener = String(id)
    const panel = this.shadow.querySelector('.panel')!
    const links = {
      ics: icsLink(this.root, event),
      google: googleLink(event),
      outlook: outlookLink(event),
    }
    panel.innerHTML = detailView(this.context, event, links)
    panel.querySelector<HTMLElement>('.detail')!.focus()
    if (!isSeries(event)) return
    try {
      const series = await readSeries(this.root, event, this.language)
      for (const other of series.events) this.events.set(other.id, other)
      if (this.opener !== String(id)) return
      panel.innerHTML = detailView(this.context, event, links, series.events)
      panel.querySelector<HTMLElement>('.detail')!.focus()
    } catch {
      // The panel stays without the other dates.
    }
  }

  private closeDetail(): void {
    this.shadow.querySelector('.panel')!.innerHTML = ''
    const opener = this.opener
    this.opener = undefined
    this.shadow.querySelector<HTMLElement>(`.body [data-event="${opener}"]`)?.focus()
  }
}
