import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { RunningJob } from '../../domain/jobs.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { ApiError } from '../../errors/registry.js';
import { findObject, touchObject } from '../../storage/repositories/objects.js';
import { findUser } from '../../storage/repositories/users.js';
import { valueLookups } from '../../storage/repositories/propertyValues.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { applyTemplateValues } from '../../domain/pages/applyTemplateValues.js';
import { copyContent } from '../../domain/pages/copyContent.js';
import { fillPlaceholders } from '../../domain/pages/templatePlaceholders.js';
import type { ResolvedTemplate } from './resolveTemplate.js';

/** The job kind that applies a template (src/jobs/kinds/applyTemplate.ts). */
export const APPLY_TEMPLATE_JOB = 'apply_template';

/** Claims before a template whose worker keeps dying is given up (the page stays as it was). */
const APPLY_TEMPLATE_MAX_ATTEMPTS = 3;

/** What the request fixed: the page, the template, what the caller gave (not overwritten), who is `@Me`. */
export interface ApplyTemplatePayload {
  pageId: string;
  templateId: string;
  /** Property ids the request set itself. */
  given: string[];
  timeZone: string;
  actorId: string;
  meId: string;
}

/**
 * Enqueues the template in the caller's transaction (the one that created or updated the page),
 * so the page and the promise to fill it commit together; ring `ctx.jobs` once it commits.
 */
export async function enqueueTemplate(ctx: AppContext, trx: Db, caller: Caller, pageId: string, template: ResolvedTemplate, given: string[]): Promise<void> {
  const payload: ApplyTemplatePayload = {
    pageId,
    templateId: template.templateId,
    given,
    timeZone: template.timeZone,
    actorId: caller.botId,
    meId: caller.userId ?? caller.botId,
  };
  await enqueueJob(trx, {
    id: ctx.newId(),
    kind: APPLY_TEMPLATE_JOB,
    workspaceId: caller.workspaceId,
    subjectId: pageId,
    payload,
    maxAttempts: APPLY_TEMPLATE_MAX_ATTEMPTS,
    // Jobs run on the system clock, whatever the test clock says (docs/decisions.md).
    at: new Date().toISOString(),
  });
}

/** The job's checkpoint: the values step is done (or was skipped), only the content remains. */
interface ApplyTemplateProgress {
  values?: boolean;
}

/**
 * The job, in two steps fenced on its lease: the template's values fill the page's empty ones,
 * then its content is copied after the page's own, placeholders filled. Each step is one
 * transaction and the first is checkpointed, so a retry after a crash repeats nothing. A value
 * the page's data source now refuses (a related page gone meanwhile) skips the values, not the
 * content. A page or template gone to the trash (or deleted) meanwhile ends the job with nothing
 * more written.
 */
export async function applyTemplate(ctx: AppContext, job: RunningJob<ApplyTemplatePayload>): Promise<void> {
  const { pageId, templateId, timeZone, actorId, meId } = job.payload;
  const open = async (trx: Db) => {
    const page = await findObject(trx, pageId);
    const template = await findObject(trx, templateId);
    if (!page || page.in_trash === 1 || !template || template.in_trash === 1) return null;
    const now = ctx.clock.now();
    const me = { id: meId, name: (await findUser(trx, page.workspace_id, meId))?.name ?? null };
    return { page, template, now, at: now.toISOString(), rewrite: (json: string) => fillPlaceholders(json, { now, timeZone, me }) };
  };
  if (!(JSON.parse(job.row.progress || '{}') as ApplyTemplateProgress).values) {
    try {
      await job.write(
        async (trx) => {
          const opened = await open(trx);
          if (!opened) return;
          const { page, template, now, at, rewrite } = opened;
          const values = {
            db: trx,
            lookups: valueLookups(trx, page.workspace_id),
            workspaceId: page.workspace_id,
            actorId,
            resolver: createMentionResolver(trx, page.workspace_id, ctx.config.publicUrl, meId),
            now,
            schemaChanged: false,
          };
          await applyTemplateValues(values, page, template, new Set(job.payload.given), at, rewrite);
        },
        { progress: { values: true } satisfies ApplyTemplateProgress },
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  await job.write(
    async (trx) => {
      const opened = await open(trx);
      if (!opened) return;
      await copyContent(trx, { fromId: opened.template.id, toId: opened.page.id, actorId, at: opened.at, rewrite: opened.rewrite });
      await touchObject(trx, opened.page.id, opened.at, actorId);
    },
    { finish: true },
  );
}
