import { ApiError } from '../errors/registry.js';

/**
 * AI credits (issue 14). Processing a recording costs CREDITS_PER_MINUTE for each minute of
 * media, a started minute counting whole, like metered speech services bill.
 */
export const CREDITS_PER_MINUTE = 1;

export function creditsFor(durationSeconds: number): number {
  return Math.max(1, Math.ceil(durationSeconds / 60)) * CREDITS_PER_MINUTE;
}

/**
 * An operator's credit amount: a whole number ≥ 0, or null for no limit. Anything else is
 * `invalid_credit_limit` (spec, "Errors"), naming the field and what was sent.
 */
export function checkCreditAmount(field: string, value: unknown): number | null {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new ApiError(
    'invalid_credit_limit',
    `${field} should be a whole number of credits ≥ 0, or null for no limit, instead was ${JSON.stringify(value) ?? 'undefined'}.`,
  );
}

/** The additional_data of the two credit refusals (spec, "Errors"): not retryable, and who can help. */
export function workspaceCreditsExhausted(): ApiError {
  return new ApiError('workspace_credits_exhausted', 'The workspace has no AI credits left to process this recording. The workspace owner can add credits.', {
    additionalData: {
      tool_error_code: 'workspace_credits_exhausted',
      tool_error_class: 'entitlement_required',
      tool_error_retryable: 'false',
      recovery_kind: 'contact_workspace_owner',
    },
  });
}

export function agentCreditLimitReached(): ApiError {
  return new ApiError('agent_credit_limit_reached', 'This integration has reached its AI credit limit. The workspace owner can raise it.', {
    additionalData: {
      tool_error_code: 'agent_credit_limit_reached',
      tool_error_class: 'entitlement_required',
      tool_error_retryable: 'false',
      recovery_kind: 'request_agent_limit_increase',
    },
  });
}
