import { PLAIN, presentFields, type ReadOnlyBlockTypeDefinition } from './definition.js';

/**
 * Types the API presents but does not accept in a request: pages and databases seen as blocks
 * (same id), meeting notes (written through their own endpoint), and templates (deprecated).
 */

export const childPage: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  holds: 'blocks',
  present: (row) => ({ title: row.title }),
};

export const childDatabase: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  present: (row) => ({ title: row.title }),
};

export const meetingNotes: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  present: presentFields('title', 'status', 'children', 'calendar_event', 'recording'),
};

/** Kept for the 2022-02-22 rename (its member held `text`); shown as a type the server does not know. */
export const template: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  richText: true,
  present: () => ({ block_type: 'template' }),
};
