/**
 * Content for search tests, written through the storage layer (insertObject, setTrashed, the
 * property value repository) on the store the test server uses: nested pages, data sources,
 * linked data sources, blocks and trash, with chosen edit times so the expected order is known.
 */
import { before } from 'node:test';
import type { Store } from '../../src/storage/createStore.js';
import { seedObject } from '../helpers/seedObject.js';
import { insertGrant } from '../../src/storage/repositories/grants.js';
import { upsertPropertyValue } from '../../src/storage/repositories/propertyValues.js';
import { setTrashed } from '../../src/domain/trash.js';
import { moveObject } from '../../src/domain/moveObject.js';
import { findObject } from '../../src/storage/repositories/objects.js';
import { textItem } from '../../src/domain/richText.js';
import { newId } from '../../src/ids/ids.js';
import type { Db } from '../../src/storage/db.js';
import type { ObjectKindColumn, ParentType } from '../../src/storage/schema.js';
import type { TestServer } from '../helpers/server.js';
import type { Fixture } from '../helpers/factories.js';
import { useStore } from '../helpers/useStore.js';
import { lateBound } from '../helpers/lateBound.js';

export interface Parent {
  type: ParentType;
  id: string | null;
}

export const WORKSPACE: Parent = { type: 'workspace', id: null };

/**
 * Writes content of one workspace. Each object gets an edit time one second after the previous
 * one (from a day ago), so "newest first" is creation order reversed unless a test edits.
 */
export class ContentWriter {
  private clock = Date.now() - 24 * 3600 * 1000;

  constructor(
    readonly store: Store,
    readonly workspaceId: string,
    readonly actorId: string,
  ) {}

  tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  private async insert(db: Db, object: ObjectKindColumn, parent: Parent, title: string, content: unknown, type: string | null = null): Promise<string> {
    const id = newId();
    const at = this.tick();
    await seedObject(
      db,
      { id, workspace_id: this.workspaceId, object, type, parent_type: parent.type, parent_id: parent.id, position: 0, title, content },
      this.actorId,
      at,
    );
    return id;
  }

  async page(title: string, parent: Parent = WORKSPACE, db: Db = this.store.db): Promise<string> {
    const id = await this.insert(db, 'page', parent, title, { icon: null, cover: null });
    await upsertPropertyValue(db, {
      page_id: id,
      property_id: 'title',
      data_source_id: parent.type === 'data_source_id' ? parent.id : null,
      value: JSON.stringify({ type: 'title', title: [textItem(title)] }),
      text_value: title,
    });
    return id;
  }

  /** Many pages in one transaction; returns their ids in creation order. */
  async pages(titles: readonly string[], parent: Parent): Promise<string[]> {
    return this.store.transaction(async (trx) => {
      const ids: string[] = [];
      for (const title of titles) ids.push(await this.page(title, parent, trx));
      return ids;
    });
  }

  /** A database holding one data source; `linked` marks the source a linked duplicate (content `linked: true`). */
  async dataSource(title: string, parent: Parent, options: { linked?: boolean } = {}): Promise<{ databaseId: string; dataSourceId: string }> {
    const rich = [textItem(title)];
    const databaseId = await this.insert(this.store.db, 'database', parent, title, { title: rich, description: [], icon: null, cover: null, is_inline: false });
    const dataSourceId = await this.insert(this.store.db, 'data_source', { type: 'database_id', id: databaseId }, title, {
      title: rich,
      description: [],
      icon: null,
      properties: { title: { id: 'title', name: 'Name', description: null, type: 'title', title: {} } },
      ...(options.linked ? { linked: true } : {}),
    });
    return { databaseId, dataSourceId };
  }

  async block(parentId: string, text: string): Promise<string> {
    return this.insert(this.store.db, 'block', { type: 'page_id', id: parentId }, '', { rich_text: [textItem(text)], color: 'default' }, 'paragraph');
  }

  /** A title edit as a command makes it: title, its property value and the edit time together. */
  async rename(id: string, title: string): Promise<void> {
    const at = this.tick();
    await this.store.transaction(async (trx) => {
      await trx.updateTable('objects').set({ title, last_edited_time: at, last_edited_by: this.actorId }).where('id', '=', id).execute();
      await upsertPropertyValue(trx, {
        page_id: id,
        property_id: 'title',
        data_source_id: null,
        value: JSON.stringify({ type: 'title', title: [textItem(title)] }),
      });
    });
  }

  /** An edit elsewhere in the page: only the edit time moves. */
  async touch(id: string): Promise<void> {
    await this.store.db.updateTable('objects').set({ last_edited_time: this.tick() }).where('id', '=', id).execute();
  }

  async trash(id: string, trashed = true): Promise<void> {
    await this.store.transaction((trx) => setTrashed(trx, id, trashed, this.actorId, this.tick()));
  }

  /** Moves an object and its subtree, as the database and data source moves do. */
  async move(id: string, parent: Parent, db?: Db): Promise<void> {
    const run = async (trx: Db) => {
      const row = await findObject(trx, id);
      if (!row) throw new Error(`no object ${id}`);
      await moveObject(trx, { id, trashed: row.trashed === 1, parentType: parent.type, parentId: parent.id, actorId: this.actorId, at: this.tick() }, [
        'parent',
      ]);
    };
    await (db ? run(db) : this.store.transaction(run));
  }

  async grant(connectionId: string, objectId: string): Promise<void> {
    await insertGrant(this.store.db, connectionId, objectId, new Date().toISOString());
  }
}

/** A second connection to the suite's store and a writer for its workspace, made after `useServer`'s hooks. */
export function useContentWriter(server: TestServer, fx: Fixture): { store: Store; writer: ContentWriter } {
  const store = useStore(server);
  let writer: ContentWriter | undefined;
  before(() => {
    writer = new ContentWriter(store, fx.workspaceId, fx.user.id);
  });
  return { store, writer: lateBound(() => writer, 'writer') };
}
