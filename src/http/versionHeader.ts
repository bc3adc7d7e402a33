import { ValidationFailure } from '../errors/validationFailure.js';
import { API_VERSIONS, isApiVersion, type ApiVersion } from '../versioning/versions.js';

/**
 * The spec names the header Service-Version; the official SDK sends Notion-Version, accepted as an
 * alias so it works with only baseUrl changed. Messages follow FACTS.md §1.
 */
export function readVersion(headers: Record<string, string | string[] | undefined>): ApiVersion {
  const raw = headers['service-version'] ?? headers['notion-version'];
  const sent = headers['service-version'] !== undefined ? 'Service-Version' : headers['notion-version'] !== undefined ? 'Notion-Version' : null;
  // With no header at all the message names both accepted names, so an SDK user (Notion-Version)
  // and a curl user (Service-Version) each recognise theirs.
  const part = `${sent ?? 'Service-Version or Notion-Version'} header` as const;
  if (raw === undefined) {
    throw new ValidationFailure({ part, path: [], rule: { name: 'required' }, actual: { value: undefined } }, 'missing_version');
  }
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!isApiVersion(value)) {
    throw new ValidationFailure({ part, path: [], rule: { name: 'enum', allowed: API_VERSIONS }, actual: { json: value.slice(0, 100) } });
  }
  return value;
}
