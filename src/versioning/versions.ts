/** Every accepted value of the version header, oldest first (FACTS.md §1). */
export const API_VERSIONS = ['2021-05-11', '2021-05-13', '2021-08-16', '2022-02-22', '2022-06-28', '2025-09-03', '2026-03-11'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const LATEST_VERSION: ApiVersion = '2026-03-11';

export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

export function compareVersions(a: ApiVersion, b: ApiVersion): number {
  return API_VERSIONS.indexOf(a) - API_VERSIONS.indexOf(b);
}

/** Whether a response goes out as presented, with no version module to rewrite it: the one question the layers above ask of versions. */
export function isNewestVersion(version: ApiVersion): boolean {
  return version === LATEST_VERSION;
}
