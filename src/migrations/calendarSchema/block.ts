/**
 * `body`, PL/pgSQL statements, as one anonymous block: the parts of the calendar's schema that
 * decide from what the database holds (which tables exist, which triggers are missing).
 * `declare`: the block's variables.
 */
export function block(body: string, declare = ''): string {
  return `
    do $block$
    ${declare ? `declare ${declare}` : ''}
    begin
      ${body}
    end $block$;`
}
