import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** The absolute path of an executable: `name` itself when it is a path, else the first match on PATH; null when none is runnable. */
export async function findExecutable(name: string, pathVariable: string): Promise<string | null> {
  const candidates =
    isAbsolute(name) || name.includes('/')
      ? [name]
      : pathVariable
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here or not executable: try the next directory.
    }
  }
  return null;
}
