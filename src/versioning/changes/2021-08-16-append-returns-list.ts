import type { VersionChange } from '../change.js';
import { APPEND_PARENT_KEY } from '../../presenters/block.js';

const APPEND = 'PATCH /v1/blocks/:block_id/children';

/**
 * FACTS.md §1, 2021-08-16: append-block-children returns the list of new children instead of
 * the parent block. The HEAD answer carries the parent block for this module (see
 * APPEND_PARENT_KEY), already downgraded by every newer module.
 */
export const appendReturnsList: VersionChange = {
  version: '2021-08-16',
  description: 'Append block children returns the list of new children instead of the parent block.',
  downgradeResponse({ route, body }) {
    if (route !== APPEND || !body || typeof body !== 'object') return body;
    const parent = (body as Record<string, unknown>)[APPEND_PARENT_KEY];
    return parent ?? body;
  },
};
