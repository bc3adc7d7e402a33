import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerCache } from '../storage/answerCache.js';

/**
 * A data-source query's kept answer (src/storage/answerCache.ts), keyed by everything its answer
 * depends on besides the store: the caller (connection, user, workspace), its version, the URL
 * with its query string (filter_properties) and the body, so no connection is ever sent what
 * another could see. What is kept is the body as serialised for the caller's version, before
 * hosted-file links are signed: the v1 plane's onSend hands it over (request.keepForReuse) and signs
 * links as each answer leaves. `keep()` is called by the route once it knows the answer does not
 * move with the clock alone (runListing.ts `readsClock`). `sent` is the reply when the kept
 * answer went out: the route returns it and runs nothing.
 */
export async function keptAnswer(answers: AnswerCache, request: FastifyRequest, reply: FastifyReply): Promise<{ sent: FastifyReply | null; keep(): void }> {
  const { caller } = request;
  if (!answers.enabled || !caller) return { sent: null, keep: () => undefined };
  const key = [
    caller.connectionId,
    caller.userId,
    caller.workspaceId,
    request.apiVersion,
    request.method,
    request.url,
    JSON.stringify(request.body ?? null),
  ].join('\n');
  const found = await answers.lookup(key);
  return {
    sent: found.body === null ? null : reply.type('application/json; charset=utf-8').send(found.body),
    keep: () => {
      request.keepForReuse = found.keep;
    },
  };
}
