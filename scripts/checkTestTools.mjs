// `npm test` runs this first (the `pretest` script): the meeting-notes tests speak with espeak-ng
// and transcribe with PocketSphinx and its US-English model, Debian packages npm cannot install. A
// machine without them stops here with the one command that installs them, instead of failing
// deep inside the speech tests. Plain JavaScript: it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';

const PACKAGES = 'espeak-ng pocketsphinx pocketsphinx-en-us chromium';

/** The executable's path on PATH, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const missing = [];
if (!onPath('espeak-ng')) missing.push('espeak-ng (the espeak-ng package)');
const sphinx = process.env.FOLIO_POCKETSPHINX || onPath('pocketsphinx_continuous');
if (!sphinx) missing.push('pocketsphinx_continuous (the pocketsphinx package)');
else {
  // Debian's model sits under the binary's prefix, as the local engine looks for it.
  const model = path.join(path.dirname(path.dirname(fs.realpathSync(sphinx))), 'share', 'pocketsphinx', 'model', 'en-us');
  if (!fs.existsSync(model)) missing.push(`the US-English model in ${model} (the pocketsphinx-en-us package)`);
}

// The browser tests (OAuth consent, the console) drive Debian's Chromium through playwright-core.
const chromium = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) missing.push(`${chromium} (the chromium package; FOLIO_CHROMIUM names another)`);

if (missing.length > 0) {
  process.stderr.write(
    [
      'npm test: the meeting-notes and browser tests need tools this machine lacks:',
      ...missing.map((m) => `  - ${m}`),
      '',
      'On Debian or Ubuntu, install them with:',
      `  sudo apt-get install -y ${PACKAGES}`,
      '',
      'then run npm test again. (The server itself does not need them; see README, "Meeting notes".)',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
