/**
 * Indexes the namespace's lists read that Payload's schema does not make:
 * - each term's events, in the index itself: a filter on a category or tag is a semi-join on
 *   `events_rels`, and Payload's index on the term alone made PostgreSQL read every link's row
 *   (40,000 for a tag at a million events, 100 ms) where this reads the index only (14 ms);
 * - events by duration, whose last entry is the longest event (`longestEvent`, for the totals by day).
 * Building them takes a few seconds at a million events, once; writes to the table wait meanwhile.
 */
export const LIST_INDEXES = `
  create index if not exists calendar_rels_category_event on events_rels (event_categories_id, parent_id) where event_categories_id is not null;
  create index if not exists calendar_rels_tag_event on events_rels (event_tags_id, parent_id) where event_tags_id is not null;
  create index if not exists calendar_events_duration on events (("end" - start));`
