import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { parseIdParam } from '../../ids/ids.js';
import {
  CreatePageBody,
  FilterPropertiesQuery,
  MovePageBody,
  PageParams,
  PagePropertyParams,
  PageResponse,
  PropertyItemQuery,
  PropertyItemResponse,
  UpdatePageBody,
  WrittenPageResponse,
} from '../../schemas/pages.js';
import { createPage } from '../../commands/pages/createPage.js';
import { retrievePage } from '../../commands/pages/retrievePage.js';
import { updatePage } from '../../commands/pages/updatePage.js';
import { movePage } from '../../commands/pages/movePage.js';
import { retrievePageProperty } from '../../commands/pages/retrievePageProperty.js';
import { presentPage, presentWrittenPage } from '../../presenters/page.js';
import { presentPropertyValue } from '../../presenters/propertyItem.js';
import { withOlderFacts } from '../../versioning/olderFacts.js';
import { OrAsyncTask } from '../../schemas/asyncTasks.js';
import { acceptAsync } from '../asyncTasks/index.js';
import type { PageView, Unreadable } from '../../domain/views.js';
import { PageMarkdownParams, PageMarkdownQuery, PageMarkdownResponse, UpdatePageMarkdownBody } from '../../schemas/markdown.js';
import { retrievePageMarkdown } from '../../commands/markdown/retrievePageMarkdown.js';
import { updatePageMarkdown } from '../../commands/markdown/updatePageMarkdown.js';
import { presentPageMarkdown } from '../../presenters/pageMarkdown.js';

/** The page's place before 2022-06-28 (the page it sits in) goes beside the body, for the version modules. */
const pageFacts = (view: PageView | Unreadable) => (view.kind === 'page' ? { enclosingPageId: view.enclosingPageId } : {});

export function registerPagesRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/pages',
    {
      config: { capability: 'insert_content', response: OrAsyncTask(WrittenPageResponse) },
      schema: { body: CreatePageBody, querystring: FilterPropertiesQuery },
    },
    async (request, reply) => {
      if (request.body.allow_async) return acceptAsync(ctx, reply, request.caller!, 'POST /v1/pages', { body: request.body, params: {}, query: request.query });
      const view = await createPage(ctx, request.caller!, request.body);
      return withOlderFacts(presentWrittenPage(view, { baseUrl: ctx.config.publicUrl, filterProperties: request.query.filter_properties }), pageFacts(view));
    },
  );

  app.get(
    '/v1/pages/:page_id',
    { config: { capability: 'read_content', response: PageResponse }, schema: { params: PageParams, querystring: FilterPropertiesQuery } },
    async (request) => {
      const raw = request.params.page_id;
      const view = await retrievePage(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw);
      return withOlderFacts(presentPage(view, { baseUrl: ctx.config.publicUrl, filterProperties: request.query.filter_properties }), pageFacts(view));
    },
  );

  app.patch(
    '/v1/pages/:page_id',
    {
      config: { capability: 'update_content', response: PageResponse },
      schema: { params: PageParams, body: UpdatePageBody, querystring: FilterPropertiesQuery },
    },
    async (request) => {
      const raw = request.params.page_id;
      const view = await updatePage(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.body ?? {});
      return withOlderFacts(presentPage(view, { baseUrl: ctx.config.publicUrl, filterProperties: request.query.filter_properties }), pageFacts(view));
    },
  );

  app.get(
    '/v1/pages/:page_id/properties/:property_id',
    {
      config: { capability: 'read_content', response: PropertyItemResponse },
      schema: { params: PagePropertyParams, querystring: PropertyItemQuery },
    },
    async (request) => {
      const raw = request.params.page_id;
      const view = await retrievePageProperty(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.params.property_id, request.query);
      return presentPropertyValue(view, { baseUrl: ctx.config.publicUrl });
    },
  );

  // Every version is accepted here: the SDK sends its default (2025-09-03) on these calls (docs/decisions.md "Markdown").
  app.get(
    '/v1/pages/:page_id/markdown',
    { config: { capability: 'read_content', response: PageMarkdownResponse }, schema: { params: PageMarkdownParams, querystring: PageMarkdownQuery } },
    async (request) => {
      const raw = request.params.page_id;
      const view = await retrievePageMarkdown(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.query.include_transcript === true);
      return presentPageMarkdown(view);
    },
  );

  app.patch(
    '/v1/pages/:page_id/markdown',
    {
      config: { capability: 'update_content', response: OrAsyncTask(PageMarkdownResponse) },
      schema: { params: PageMarkdownParams, body: UpdatePageMarkdownBody },
    },
    async (request, reply) => {
      const raw = request.params.page_id;
      if (request.body.allow_async)
        return acceptAsync(ctx, reply, request.caller!, 'PATCH /v1/pages/:page_id/markdown', { body: request.body, params: request.params, query: {} });
      const view = await updatePageMarkdown(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.body);
      return presentPageMarkdown(view);
    },
  );

  // Moving edits the page's place: update_content, as for a database's parent (docs/decisions.md, "Move").
  app.post(
    '/v1/pages/:page_id/move',
    { config: { capability: 'update_content', response: PageResponse }, schema: { params: PageParams, body: MovePageBody } },
    async (request) => {
      const raw = request.params.page_id;
      const view = await movePage(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.body);
      return withOlderFacts(presentPage(view, { baseUrl: ctx.config.publicUrl }), pageFacts(view));
    },
  );
}
