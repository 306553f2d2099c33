/**
 * The widget's look, adopted by its shadow root as a constructed stylesheet: no `<style>` element and
 * no style attribute, so a page's `style-src 'self'` allows it. Sites theme it through the custom
 * properties below (inherited through the shadow boundary) and the `::part()` names of the markup.
 */
export const STYLES = `
:host {
  --cal-font: inherit;
  --cal-text: #1b1b1f;
  --cal-muted: #4f5259;
  --cal-background: #ffffff;
  --cal-surface: #f4f5f7;
  --cal-border: #c9ccd3;
  --cal-accent: #0b57d0;
  --cal-accent-text: #ffffff;
  --cal-featured: #8a4b00;
  --cal-radius: 6px;
  --cal-gap: 0.5rem;
  display: block;
  container-type: inline-size;
  font-family: var(--cal-font);
  color: var(--cal-text);
  background: var(--cal-background);
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.calendar { display: flex; flex-direction: column; gap: var(--cal-gap); min-width: 0; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
button, input, select { font: inherit; color: inherit; }
button {
  cursor: pointer; border: 1px solid var(--cal-border); border-radius: var(--cal-radius);
  background: var(--cal-background); padding: 0.35rem 0.7rem; min-height: 2.25rem;
}
button:hover { background: var(--cal-surface); }
button[aria-pressed="true"] { background: var(--cal-accent); color: var(--cal-accent-text); border-color: var(--cal-accent); }
button:disabled { cursor: default; color: var(--cal-muted); }
:focus-visible { outline: 3px solid var(--cal-accent); outline-offset: 2px; }
a { color: var(--cal-accent); }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: var(--cal-gap); justify-content: space-between; }
.nav, .views { display: flex; gap: 0.25rem; }
.title { font-size: 1.25rem; margin: 0; flex: 1 1 12rem; text-align: center; }
.filters { display: flex; flex-wrap: wrap; gap: var(--cal-gap); align-items: end; }
.filters { max-width: 100%; }
.filters label { display: flex; flex-direction: column; gap: 0.15rem; font-size: 0.875rem; min-width: 0; max-width: 100%; }
.filters label.check { flex-direction: row; align-items: center; gap: 0.35rem; min-height: 2.25rem; }
.filters label[hidden] { display: none; }
.filters input[type="search"], .filters select {
  border: 1px solid var(--cal-border); border-radius: var(--cal-radius); padding: 0.35rem; min-height: 2.25rem; max-width: 100%;
  background: var(--cal-background);
}
.subscribe { align-self: center; font-size: 0.875rem; }
.status { margin: 0; min-height: 1.25rem; color: var(--cal-muted); font-size: 0.875rem; }
.status:empty { min-height: 0; }
ul, ol { list-style: none; margin: 0; padding: 0; }
.event {
  position: relative; display: block; width: 100%; text-align: start; border: 0; border-inline-start: 3px solid var(--cal-accent);
  background: var(--cal-surface); border-radius: 3px; padding: 0.15rem 0.3rem; min-height: 1.5rem; font-size: 0.8125rem;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
.event.featured { border-inline-start-color: var(--cal-featured); font-weight: 600; }
.time, .where { color: var(--cal-muted); }
.month { width: 100%; border-collapse: collapse; table-layout: fixed; }
.month th { font-size: 0.8125rem; font-weight: 600; padding: 0.25rem; color: var(--cal-muted); }
.month td { border: 1px solid var(--cal-border); vertical-align: top; height: 6rem; padding: 0.2rem; overflow: hidden; }
.month td.outside { background: var(--cal-surface); }
.month td.outside .number { color: var(--cal-muted); }
.month td.today .number { background: var(--cal-accent); color: var(--cal-accent-text); border-radius: 999px; padding: 0 0.35rem; }
.number { font-size: 0.8125rem; }
.events { display: flex; flex-direction: column; gap: 2px; margin-top: 2px; }
.agenda { display: flex; flex-direction: column; gap: var(--cal-gap); }
.agenda h3 { font-size: 1rem; margin: 0 0 0.25rem; }
.agenda .today h3 { color: var(--cal-accent); }
.agenda .event, .list .event, .series-dates .event { white-space: normal; font-size: 0.9375rem; padding: 0.4rem 0.6rem; }
.list { display: flex; flex-direction: column; gap: 0.35rem; }
.none { color: var(--cal-muted); margin: 0; }
.pager { display: flex; gap: var(--cal-gap); align-items: center; justify-content: center; margin-top: var(--cal-gap); }
.detail {
  border: 1px solid var(--cal-border); border-radius: var(--cal-radius); padding: 1rem; position: relative; background: var(--cal-background);
}
.detail h3 { margin: 0 0 0.5rem; padding-inline-end: 5rem; font-size: 1.2rem; }
.detail h4 { margin: 0.75rem 0 0.25rem; font-size: 1rem; }
.detail .close { position: absolute; inset-inline-end: 0.75rem; top: 0.75rem; }
.detail dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 0.75rem; margin: 0; }
.detail dt { font-weight: 600; }
.detail dd { margin: 0; overflow-wrap: anywhere; }
.detail .about { white-space: pre-line; }
.add { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
.series { color: var(--cal-accent); }
@container (max-width: 40rem) {
  .title { order: -1; flex-basis: 100%; }
  .month th { font-size: 0.6875rem; padding: 0.1rem; }
  .month td { height: 4.5rem; padding: 1px; }
  .month .event { font-size: 0.6875rem; padding: 0 2px; }
  .month .time { display: none; }
  .detail dl { grid-template-columns: 1fr; }
}
`
