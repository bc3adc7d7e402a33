import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CreatePageInput } from '../../schemas/pages.js';
import type { PageView, Unreadable } from '../../domain/views.js';
import { presentWrittenPage } from '../../presenters/page.js';
import { withOlderFacts } from '../../versioning/olderFacts.js';
import { createPage } from '../pages/createPage.js';
import type { UpdatePageMarkdownInput } from '../../schemas/markdown.js';
import type { PageMarkdownView } from '../../domain/markdown/view.js';
import { presentPageMarkdown } from '../../presenters/pageMarkdown.js';
import { parseIdParam } from '../../ids/ids.js';
import { updatePageMarkdown } from '../markdown/updatePageMarkdown.js';

/** A request as its route checked it (newest version, `allow_async` removed), kept with the task so the job can run it. */
export interface AsyncRequest {
  body: Record<string, unknown>;
  params: Record<string, string>;
  query: Record<string, unknown>;
}

/**
 * One request that may run as an async task: the command its synchronous route runs and how the
 * route presents the command's view. The body `present` returns is exactly the synchronous
 * response (with its older-version facts beside it, versioning/olderFacts.ts).
 */
export interface AsyncOperation {
  run(ctx: AppContext, caller: Caller, request: AsyncRequest): Promise<unknown>;
  present(ctx: AppContext, view: unknown, request: AsyncRequest): object;
}

/** Declares an operation with its view's type, so `run` and `present` agree. */
function operation<V>(op: {
  run(ctx: AppContext, caller: Caller, request: AsyncRequest): Promise<V>;
  present(ctx: AppContext, view: V, request: AsyncRequest): object;
}): AsyncOperation {
  return op as AsyncOperation;
}

const filterProperties = (request: AsyncRequest) => request.query.filter_properties as string[] | undefined;

/**
 * Every request that takes `allow_async: true`, by the name the task shows (`operation.name`),
 * which is also its route key ("METHOD path" as Fastify declares it): the version modules
 * downgrade a task's result as they would that route's answer. Adding one is one entry here and,
 * in its route, answering `allow_async` with `acceptAsync` (src/routes/asyncTasks/accept.ts).
 */
export const ASYNC_OPERATIONS: Readonly<Record<string, AsyncOperation>> = {
  'POST /v1/pages': operation<PageView | Unreadable>({
    run: (ctx, caller, request) => createPage(ctx, caller, request.body as CreatePageInput),
    present: (ctx, view, request) =>
      withOlderFacts(
        presentWrittenPage(view, { baseUrl: ctx.config.publicUrl, filterProperties: filterProperties(request) }),
        view.kind === 'page' ? { enclosingPageId: view.enclosingPageId } : {},
      ),
  }),
  'PATCH /v1/pages/:page_id/markdown': operation<PageMarkdownView>({
    run: (ctx, caller, request) =>
      updatePageMarkdown(ctx, caller, parseIdParam(request.params.page_id, 'page_id'), request.params.page_id, request.body as UpdatePageMarkdownInput),
    present: (_ctx, view) => presentPageMarkdown(view),
  }),
};

export type AsyncOperationName = keyof typeof ASYNC_OPERATIONS;
