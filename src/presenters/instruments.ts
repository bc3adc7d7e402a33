import type { Static } from 'typebox';
import type { Fault } from '../instruments/faults.js';
import type { LoggedRequest } from '../instruments/requestLog.js';
import type { AdminFault, AdminLoggedRequest } from '../schemas/instruments.js';

export function presentFault(fault: Fault): Static<typeof AdminFault> {
  return {
    object: 'fault',
    id: fault.id,
    connection_id: fault.connection_id ?? null,
    method: fault.method ?? null,
    path: fault.path ?? null,
    status: fault.status ?? null,
    latency_ms: fault.latency_ms ?? null,
    count: fault.count ?? null,
    ratio: fault.ratio ?? null,
    retry_after: fault.retry_after ?? null,
    hits: fault.hits,
    created_time: fault.created_time,
  };
}

export function presentLoggedRequest(entry: LoggedRequest): Static<typeof AdminLoggedRequest> {
  return { object: 'request', ...entry };
}
