import type { FastifyReply } from 'fastify';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { AsyncTaskParams, AsyncTaskResponse } from '../../schemas/asyncTasks.js';
import { retrieveAsyncTask } from '../../commands/asyncTasks/retrieveAsyncTask.js';
import { startAsyncTask } from '../../commands/asyncTasks/startAsyncTask.js';
import type { AsyncRequest } from '../../commands/asyncTasks/operations.js';
import { presentAsyncTask } from '../../presenters/asyncTask.js';
import { VersionEngine } from '../../versioning/engine.js';
import { isNewestVersion, type ApiVersion } from '../../versioning/versions.js';
import { withOlderFacts } from '../../versioning/olderFacts.js';

const versions = new VersionEngine();

/**
 * Answers a request sent with `allow_async: true`: 202 and the task, queued
 * (src/commands/asyncTasks/operations.ts names the requests that take it).
 */
export async function acceptAsync(ctx: AppContext, reply: FastifyReply, caller: Caller, operation: string, request: AsyncRequest) {
  const { allow_async: _, ...body } = request.body;
  const view = await startAsyncTask(ctx, caller, operation, { ...request, body });
  return reply.code(202).send(presentAsyncTask(view, { baseUrl: ctx.config.publicUrl }));
}

export function registerAsyncTaskRoutes(app: App, ctx: AppContext): void {
  // Needs only a valid token: a task is its own connection's, whatever it may do.
  app.get('/v1/async_tasks/:task_id', { config: { response: AsyncTaskResponse }, schema: { params: AsyncTaskParams } }, async (request, reply) => {
    const view = await retrieveAsyncTask(ctx, request.caller!, request.params.task_id);
    const body = presentAsyncTask(view, { baseUrl: ctx.config.publicUrl });
    if (isNewestVersion(request.apiVersion) || view.status !== 'succeeded') return body;
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(olderResult(request.apiVersion, body, view)));
  });
}

/**
 * A result at the poller's version: walked back as its own route's answer would be (the operation
 * name is that route's key), with the facts saved beside it. Sent as text, so the plane does not
 * walk the task itself back as this route's answer too.
 */
function olderResult(version: ApiVersion, body: object, view: { operation: string; result: { body: object; facts: object } | null }) {
  const result = withOlderFacts(view.result!.body, view.result!.facts);
  return { ...body, result: versions.downgradeResponse(version, view.operation, result) };
}
