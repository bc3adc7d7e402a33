import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors/validationFailure.js';
import { allBlobKeys, emptyStore } from '../../storage/repositories/emptyStore.js';
import type { ResetInput } from '../../schemas/admin.js';
import { resetToSeed } from '../fixtures/seedStore.js';

export interface ResetView {
  to: 'empty' | 'seed';
  durationMs: number;
}

/**
 * POST /admin/v1/reset (issue 26): the store back to empty, in one transaction, so a test suite
 * can start each test from nothing. Tokens of connections from before stop working at once (the
 * connections are gone). Stored files are deleted after the rows, so a failed reset loses none.
 */
export async function resetStore(ctx: AppContext, input: ResetInput): Promise<ResetView> {
  if (input.to === 'seed' && !ctx.seed) {
    throw invalidField(['to'], 'should be `empty`: this server was started without a seed to return to (FOLIO_SEED or `folio serve --seed`)', input.to);
  }
  const started = performance.now();
  if (input.to === 'seed' && ctx.seed) {
    await resetToSeed(ctx, ctx.seed);
    return { to: input.to, durationMs: Math.round((performance.now() - started) * 10) / 10 };
  }
  const keys = await ctx.store.transaction(async (trx) => {
    const stored = await allBlobKeys(trx);
    await emptyStore(trx);
    return stored;
  });
  await ctx.files.delete(keys);
  return { to: input.to, durationMs: Math.round((performance.now() - started) * 10) / 10 };
}
