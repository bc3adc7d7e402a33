import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors/validationFailure.js';
import { ApiError } from '../../errors/registry.js';
import type { Fault } from '../../instruments/faults.js';
import type { LoggedRequest } from '../../instruments/requestLog.js';
import type { CreateFaultInput, RequestsListQuery } from '../../schemas/instruments.js';

/** Sets a fault on this instance's `/v1` answers (src/http/faultHook.ts). */
export function createFault(ctx: AppContext, input: CreateFaultInput): Fault {
  // The operator's own plane stays reachable, or a fault could lock out the call that clears it.
  if (input.path !== undefined && !input.path.startsWith('/v1')) {
    throw invalidField(['path'], 'should start with `/v1`: faults apply to the Content API, never to /admin', input.path);
  }
  if (input.status === undefined && input.latency_ms === undefined) {
    throw invalidField(['status'], 'should be given, or `latency_ms`: a fault answers with an error, adds latency, or both', undefined);
  }
  return ctx.instruments.faults.add(input, ctx.newId(), ctx.clock.now().toISOString());
}

export function listFaults(ctx: AppContext): Fault[] {
  return ctx.instruments.faults.list();
}

export function deleteFault(ctx: AppContext, id: string): Fault {
  const fault = ctx.instruments.faults.remove(id);
  if (!fault) throw new ApiError('object_not_found', `Could not find fault with ID: ${id}.`);
  return fault;
}

export function clearFaults(ctx: AppContext): number {
  return ctx.instruments.faults.clear();
}

export const DEFAULT_REQUEST_LIST_LIMIT = 100;

export function listRequests(ctx: AppContext, query: RequestsListQuery): LoggedRequest[] {
  return ctx.instruments.requests.list({ connectionId: query.connection_id, status: query.status, limit: query.limit ?? DEFAULT_REQUEST_LIST_LIMIT });
}
