import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('system_user_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('email', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('meeting_notes_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_workspace').on('users').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('capabilities', 'text', (c) => c.notNull())
    .addColumn('user_info', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('bot_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('revoked_time', 'text')
    .execute();

  await db.schema
    .createTable('objects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('object', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('in_trash', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trashed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('last_edited_time', 'text', (c) => c.notNull())
    .addColumn('last_edited_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('objects_children').on('objects').columns(['parent_id', 'position']).execute();
  await db.schema.createIndex('objects_edited').on('objects').columns(['workspace_id', 'last_edited_time', 'id']).execute();

  await db.schema
    .createTable('object_ancestors')
    .addColumn('ancestor_id', 'text', (c) => c.notNull())
    .addColumn('descendant_id', 'text', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('object_ancestors_pk', ['descendant_id', 'ancestor_id'])
    .execute();
  await db.schema.createIndex('object_ancestors_by_ancestor').on('object_ancestors').columns(['ancestor_id', 'descendant_id']).execute();

  await db.schema
    .createTable('grants')
    .addColumn('connection_id', 'text', (c) => c.notNull().references('connections.id'))
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('grants_pk', ['connection_id', 'object_id'])
    .execute();
  await db.schema.createIndex('grants_by_object').on('grants').columns(['object_id', 'connection_id']).execute();

  await db.schema
    .createTable('property_values')
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('property_id', 'text', (c) => c.notNull())
    .addColumn('data_source_id', 'text')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('text_value', 'text')
    .addColumn('number_value', 'double precision')
    .addColumn('date_start', 'text')
    .addColumn('date_end', 'text')
    .addColumn('bool_value', 'integer')
    .addPrimaryKeyConstraint('property_values_pk', ['page_id', 'property_id'])
    .execute();
  await db.schema.createIndex('property_values_number').on('property_values').columns(['data_source_id', 'property_id', 'number_value']).execute();
  await db.schema.createIndex('property_values_text').on('property_values').columns(['data_source_id', 'property_id', 'text_value']).execute();
  await db.schema.createIndex('property_values_date').on('property_values').columns(['data_source_id', 'property_id', 'date_start']).execute();

  await db.schema
    .createTable('property_value_items')
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('property_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('property_value_items_pk', ['page_id', 'property_id', 'item'])
    .execute();
  await db.schema.createIndex('property_value_items_by_item').on('property_value_items').columns(['property_id', 'item']).execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
