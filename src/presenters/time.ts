/** The service reports created/edited times rounded down to the minute (FACTS.md §6). */
export function presentTimestamp(iso: string): string {
  return `${iso.slice(0, 16)}:00.000Z`;
}

export function partialUser(id: string): { object: 'user'; id: string } {
  return { object: 'user', id };
}
