import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ObjectRow, ParentType } from '../../storage/schema.js';
import { assertEditable, loadVisibleObject } from '../../auth/access.js';
import { normalizeId } from '../../ids/ids.js';
import { invalidField } from '../../errors/validationFailure.js';
import { isWorkspaceParent, type PageParentInput } from '../../schemas/pages.js';
import { findObject } from '../../storage/repositories/objects.js';
import { listDataSourcesOf, lockRow } from '../../storage/repositories/objects.js';

export interface ResolvedParent {
  parentType: ParentType;
  parentId: string | null;
  /** The data source the page is a row of, locked for this transaction and read afresh. */
  dataSource: ObjectRow | null;
}

/**
 * The parent of a new page: a page, a database (its single data source) or a data source the
 * connection can see (else object_not_found, as for any unshared object), and not in the trash;
 * or the workspace.
 */
export async function resolvePageParent(db: Db, caller: Caller, parent: PageParentInput | undefined): Promise<ResolvedParent> {
  if (!parent || isWorkspaceParent(parent)) return { parentType: 'workspace', parentId: null, dataSource: null };
  if ('page_id' in parent) {
    const page = await loadVisibleObject(db, caller, normalizeId(parent.page_id)!, ['page'], 'page', parent.page_id);
    assertEditable(page);
    return { parentType: 'page_id', parentId: page.id, dataSource: null };
  }
  let sourceId: string;
  if ('data_source_id' in parent) {
    sourceId = (await loadVisibleObject(db, caller, normalizeId(parent.data_source_id)!, ['data_source'], 'data_source', parent.data_source_id)).id;
  } else {
    const database = await loadVisibleObject(db, caller, normalizeId(parent.database_id)!, ['database'], 'database', parent.database_id);
    const sources = (await listDataSourcesOf(db, database.id)).filter((s) => s.trashed === 0);
    // FACTS.md §1 (2025-09-03): database_id parents are accepted while the database has one source.
    if (sources.length !== 1) {
      throw invalidField(
        ['parent', 'database_id'],
        `should be a database with a single data source (it has ${sources.length}); use parent.data_source_id`,
        parent.database_id,
      );
    }
    sourceId = sources[0].id;
  }
  await lockRow(db, sourceId);
  const dataSource = (await findObject(db, sourceId))!;
  assertEditable(dataSource);
  return { parentType: 'data_source_id', parentId: dataSource.id, dataSource };
}
