import { ApiError } from '../errors/registry.js';
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
  const name = sent ?? 'Service-Version or Notion-Version';
  if (raw === undefined) {
    throw new ApiError('missing_version', `${name} header failed validation: ${name} header should be defined, instead was \`undefined\`.`);
  }
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!isApiVersion(value)) {
    const allowed = API_VERSIONS.map((v) => `"${v}"`);
    const list = `${allowed.slice(0, -1).join(', ')}, or ${allowed[allowed.length - 1]}`;
    throw new ApiError(
      'validation_error',
      `${name} header failed validation: ${name} header should be ${list}, instead was ${JSON.stringify(value.slice(0, 100))}.`,
    );
  }
  return value;
}
