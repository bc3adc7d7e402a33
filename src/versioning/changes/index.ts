import type { VersionChange } from '../change.js';
import { appendReturnsList } from './2021-08-16-append-returns-list.js';
import { blockRichText } from './2022-02-22-block-rich-text.js';
import { blockParent } from './2022-06-28-block-parent.js';
import { meetingNotesRename } from './2026-03-11-meeting-notes-rename.js';
import { appendPosition } from './2026-03-11-append-position.js';
import { archivedRemoved } from './2026-03-11-archived.js';
import { richTextProperty } from './2021-05-13-rich-text-property.js';
import { directParents } from './2022-06-28-parents.js';
import { dataSourcesSplit } from './2025-09-03-data-sources.js';
import { searchDataSources } from './2025-09-03-search.js';
import { viewsAdded } from './2025-09-03-views.js';

/** Every modelled breaking change; the engine orders them by version. */
export const VERSION_CHANGES: readonly VersionChange[] = [
  appendReturnsList,
  blockRichText,
  blockParent,
  meetingNotesRename,
  appendPosition,
  archivedRemoved,
  richTextProperty,
  directParents,
  dataSourcesSplit,
  searchDataSources,
  viewsAdded,
];
