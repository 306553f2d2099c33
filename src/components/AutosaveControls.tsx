import { RESOURCES } from '../calendar/resources'

const AUTHORED = RESOURCES.filter((resource) => resource.family === 'authored').map(
  (resource) => resource.collection,
)

/**
 * Hides the draft controls Payload adds for drafts that mean nothing here (docs/api.md §21): the
 * create view's "Save draft" (a create writes the item, so it would be a second Save), the bulk
 * edit's "Save draft", and the list's bulk Publish and Unpublish, which would change Payload's
 * draft state and not `status`, the item's publication. Only on the calendar's own collections.
 */
export function AutosaveControls() {
  const rules = AUTHORED.flatMap((slug) => [
    `.collection-edit--${slug} #action-save-draft`,
    `.drawer:has(#close-drawer__edit-${slug}) .edit-many__draft`,
    `.collection-list--${slug} .list-selection__button[aria-label="Save"]`,
    `.collection-list--${slug} .list-selection__button[aria-label="Unpublish"]`,
  ])
  return <style>{`${rules.join(',\n')} { display: none; }`}</style>
}
