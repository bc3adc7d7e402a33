// The lock every build step takes (the server's tsc build in start.mjs, the console's Vite build in
// buildConsole.mjs): several starts and test runs may share one checkout, and none may read a
// half-written dist/. Plain JavaScript: it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = path.join(root, '.build-lock');

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The newest modification time among files and directories (walked) named, relative to the root. */
export function newestInput(names, file = null) {
  let newest = 0;
  for (const name of file ? [file] : names.map((n) => path.join(root, n))) {
    let stat;
    try {
      stat = fs.statSync(name);
    } catch {
      continue;
    }
    if (stat.isDirectory()) for (const child of fs.readdirSync(name)) newest = Math.max(newest, newestInput(names, path.join(name, child)));
    else newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** mkdir is atomic: whoever creates the directory holds the lock; a dead holder's lock is taken over. */
export async function withBuildLock(fn) {
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let holder = NaN;
      try {
        holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        // Created but its pid not yet written: the holder is alive.
      }
      if (Number.isInteger(holder) && !isAlive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
