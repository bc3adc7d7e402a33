import { Type, type Static, type TSchema } from 'typebox';
import { StrictObject } from './common.js';

/** `GET /v1/async_tasks/{task_id}`: ids are `task_` and 24 random letters and digits (docs/decisions.md). */
export const AsyncTaskParams = StrictObject({ task_id: Type.String({ maxLength: 200 }) });

const Common = {
  object: Type.Literal('async_task'),
  id: Type.String(),
  status_url: Type.String(),
  created_time: Type.String(),
  operation: Type.Object({ surface: Type.Union([Type.Literal('rest'), Type.Literal('mcp')]), name: Type.String() }, { additionalProperties: false }),
};

/** The error body a failed task carries: the body the synchronous request would have answered with, without its request id. */
export const AsyncTaskError = Type.Object(
  {
    object: Type.Literal('error'),
    status: Type.Integer(),
    code: Type.String(),
    message: Type.String(),
    additional_data: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]))),
  },
  { additionalProperties: false },
);
export type AsyncTaskErrorBody = Static<typeof AsyncTaskError>;

/** SDK `GetAsyncTaskResponse`: what a task shows depends on its status. */
export const AsyncTaskResponse = Type.Union([
  Type.Object(
    {
      ...Common,
      status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('retrying')]),
      poll_after_seconds: Type.Number(),
    },
    { additionalProperties: false },
  ),
  Type.Object({ ...Common, status: Type.Literal('succeeded'), result: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: false }),
  Type.Object({ ...Common, status: Type.Literal('failed'), error: AsyncTaskError }, { additionalProperties: false }),
]);
export type AsyncTaskBody = Static<typeof AsyncTaskResponse>;

/** A route that takes `allow_async` answers either its own body or, with 202, a queued task. */
export const OrAsyncTask = <T extends TSchema>(response: T) => Type.Union([response, AsyncTaskResponse]);
