import { ApiError } from '../../errors/registry.js';

/**
 * The operator's not-found: the admin plane and `folio admin` see every object, so the API's
 * advice to share pages with the integration would mislead them.
 */
export function adminNotFound(kind: 'workspace' | 'user' | 'connection' | 'page', id: string): ApiError {
  return new ApiError('object_not_found', `Could not find ${kind} with ID: ${id}.`);
}
