import { Type } from 'typebox';
import { AdminFault, AdminFaultList, AdminFaultsCleared, AdminRequestList, CreateFaultBody, RequestsQuery } from '../schemas/instruments.js';
import { clearFaults, createFault, deleteFault, listFaults, listRequests } from '../commands/admin/instruments.js';
import { presentFault, presentLoggedRequest } from '../presenters/instruments.js';
import { adminOperation, type AnyAdminOperation } from './adminOperation.js';

const FaultParams = Type.Object({ fault_id: Type.String() }, { additionalProperties: false });

/**
 * Faults and the request log live in the memory of the server answering (src/instruments/), so
 * they have routes and no `folio admin` subcommand: a CLI process has neither.
 */
export const INSTRUMENT_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/faults',
    body: CreateFaultBody,
    response: AdminFault,
    run: (ctx, { body }) => createFault(ctx, body),
    present: presentFault,
  }),
  adminOperation({
    method: 'GET',
    path: '/faults',
    response: AdminFaultList,
    run: (ctx) => listFaults(ctx),
    present: (faults) => ({ object: 'list' as const, results: faults.map(presentFault) }),
  }),
  adminOperation({
    method: 'DELETE',
    path: '/faults/:fault_id',
    params: FaultParams,
    response: AdminFault,
    run: (ctx, { params }) => deleteFault(ctx, params.fault_id),
    present: presentFault,
  }),
  adminOperation({
    method: 'DELETE',
    path: '/faults',
    response: AdminFaultsCleared,
    run: (ctx) => clearFaults(ctx),
    present: (deleted) => ({ object: 'list' as const, deleted }),
  }),
  adminOperation({
    method: 'GET',
    path: '/requests',
    query: RequestsQuery,
    response: AdminRequestList,
    run: (ctx, { query }) => ({ entries: listRequests(ctx, query), capacity: ctx.instruments.requests.capacity }),
    present: ({ entries, capacity }) => ({ object: 'list' as const, results: entries.map(presentLoggedRequest), capacity }),
  }),
];
