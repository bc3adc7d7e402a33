import type { AppContext } from '../context.js';
import type { JobKind } from '../jobs/jobKind.js';
import { JobWorker } from './jobWorker.js';

/**
 * Starts this process's job worker on the core for the kinds given (src/jobs/index.ts lists them),
 * each with the slots its configuration gives (`slots` overrides per kind name, for
 * `folio worker --concurrency`). Each kind prepares first (meeting notes log whether their
 * engines can run). Null when no kind has a slot here.
 */
export async function startWorkers(ctx: AppContext, kinds: readonly JobKind[], slots: Record<string, number> = {}): Promise<JobWorker | null> {
  const given = kinds.map((kind) => ({ kind, slots: slots[kind.name] ?? kind.slots(ctx.config) }));
  for (const { kind, slots: n } of given) await kind.prepare?.(ctx, n);
  const running = given.filter((k) => k.slots > 0);
  if (running.length === 0) return null;
  const worker = new JobWorker(ctx, running, ctx.config.jobs);
  worker.start();
  ctx.log.info({ worker: worker.id, slots: Object.fromEntries(running.map((k) => [k.kind.name, k.slots])) }, 'job worker started');
  return worker;
}
