import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import type { Core } from '../core.js';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { importFixture, prepareImport } from '../commands/fixtures/importFixture.js';
import { loadSeedAtStart } from '../commands/fixtures/seedStore.js';
import { exportWorkspace } from '../commands/fixtures/exportWorkspace.js';
import { presentImport } from '../admin/fixtures.js';
import { parseIdParam } from '../ids/ids.js';
import { readFixtureFile } from './readFixtureFile.js';

/** Below this many rows an import or export is over before a bar could say anything. */
const BAR_FROM = 2_000;

/**
 * A progress bar on stderr for long runs (cli-progress draws only on a terminal, so piped and
 * scripted runs print nothing extra). Returns the callback the command reports progress to.
 */
function progressBar(label: string): { update(done: number, total: number): void; stop(): void } {
  let bar: cliProgress.SingleBar | null = null;
  return {
    update(done, total) {
      if (total < BAR_FROM) return;
      if (!bar) {
        bar = new cliProgress.SingleBar(
          { format: `${label} [{bar}] {percentage}% | {value}/{total}`, stream: process.stderr },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, 0);
      }
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}

/** FOLIO_SEED / `folio serve --seed`: read, checked and planned once; loaded into an empty store. */
export async function loadSeed(core: Core, file: string): Promise<void> {
  const { fixture, baseDir } = await readFixtureFile(file);
  const loaded = await loadSeedAtStart(core, await prepareImport(core, fixture, baseDir));
  core.log.info(
    { seed: file, loaded },
    loaded ? `seed ${file} loaded` : `seed ${file} not loaded: the store already has workspaces (POST /admin/v1/reset {"to":"seed"} returns to it)`,
  );
}

async function withCore<T>(run: (core: Core) => Promise<T>): Promise<T> {
  const core = await createCore(loadConfig());
  try {
    return await run(core);
  } finally {
    await core.close();
  }
}

export function registerFixtureCli(program: Command): void {
  program
    .command('import')
    .description('load a fixture file (JSON, or YAML by its .yaml/.yml name) into the configured store, all or nothing (docs/fixtures.md)')
    .argument('<file>', 'the fixture; `path` bytes are read relative to it')
    .action(async (file: string) => {
      const { fixture, baseDir } = await readFixtureFile(file);
      const bar = progressBar('importing');
      const view = await withCore((core) => importFixture(core, fixture, { baseDir, onProgress: bar.update })).finally(() => bar.stop());
      process.stdout.write(`${JSON.stringify(presentImport(view), null, 2)}\n`);
    });
  program
    .command('export')
    .description('write one workspace of the configured store as a fixture (JSON), which `folio import` reads back as it is')
    .requiredOption('--workspace <id>', 'the workspace to export')
    .option('--out <file>', 'where to write it (default: standard output)')
    .action(async (options: { workspace: string; out?: string }) => {
      const workspaceId = parseIdParam(options.workspace, 'workspace_id');
      const bar = progressBar('exporting files');
      const fixture = await withCore((core) => exportWorkspace(core, workspaceId, bar.update)).finally(() => bar.stop());
      const text = `${JSON.stringify(fixture, null, 2)}\n`;
      if (options.out) await fs.writeFile(path.resolve(options.out), text);
      else process.stdout.write(text);
    });
}
