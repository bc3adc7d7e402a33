import { Type, type Static } from 'typebox';
import { StrictObject } from './common.js';

/** The statuses a fault may answer with: those a client's retry code meets from the service (and a proxy's 502). */
export const FAULT_STATUSES = [409, 429, 500, 502, 503, 504, 529] as const;
const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** POST /admin/v1/faults (issue 26): every matcher is optional; at least a status or a latency. */
export const CreateFaultBody = Type.Object(
  {
    connection_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    method: Type.Optional(Type.Union(HTTP_METHODS.map((m) => Type.Literal(m)))),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, pattern: '^/' })),
    status: Type.Optional(Type.Union(FAULT_STATUSES.map((s) => Type.Literal(s)))),
    latency_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000 })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    retry_after: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
  },
  { additionalProperties: false },
);

export const AdminFault = Type.Object(
  {
    object: Type.Literal('fault'),
    id: Type.String(),
    connection_id: Type.Union([Type.String(), Type.Null()]),
    method: Type.Union([Type.String(), Type.Null()]),
    path: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Integer(), Type.Null()]),
    latency_ms: Type.Union([Type.Integer(), Type.Null()]),
    count: Type.Union([Type.Integer(), Type.Null()]),
    ratio: Type.Union([Type.Number(), Type.Null()]),
    retry_after: Type.Union([Type.Integer(), Type.Null()]),
    hits: Type.Integer(),
    created_time: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export const AdminFaultList = Type.Object({ object: Type.Literal('list'), results: Type.Array(AdminFault) }, { additionalProperties: false });
export const AdminFaultsCleared = Type.Object({ object: Type.Literal('list'), deleted: Type.Integer() }, { additionalProperties: false });

/** GET /admin/v1/requests: the newest first, narrowed by connection or status. */
export const RequestsQuery = StrictObject({
  connection_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});

export const AdminLoggedRequest = Type.Object(
  {
    object: Type.Literal('request'),
    request_id: Type.String(),
    time: Type.String({ format: 'date-time' }),
    method: Type.String(),
    path: Type.String(),
    route: Type.Union([Type.String(), Type.Null()]),
    connection_id: Type.Union([Type.String(), Type.Null()]),
    version: Type.Union([Type.String(), Type.Null()]),
    status: Type.Integer(),
    duration_ms: Type.Number(),
    error_code: Type.Union([Type.String(), Type.Null()]),
    /** The request's body and the answer, cut to 4,096 characters, tokens and link signatures redacted. */
    request_body: Type.Union([Type.String(), Type.Null()]),
    response_body: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export const AdminRequestList = Type.Object(
  { object: Type.Literal('list'), results: Type.Array(AdminLoggedRequest), capacity: Type.Integer() },
  { additionalProperties: false },
);

export type CreateFaultInput = Static<typeof CreateFaultBody>;
export type RequestsListQuery = Static<typeof RequestsQuery>;
