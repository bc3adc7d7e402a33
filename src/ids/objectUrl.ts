/** An object's public address: the workspace base URL and its id without dashes, as the service shows it. */
export function objectUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/${id.replace(/-/g, '')}`;
}
