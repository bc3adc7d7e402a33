/**
 * The official SDK (`@notionhq/client` 5.x) works against Folio with only `baseUrl` changed:
 * it sends Notion-Version (2025-09-03 by default), parses Folio's lists, and recognises Folio's
 * error bodies as APIResponseError with the right code.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, isFullUser, iteratePaginatedAPI } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { admin } from '../helpers/factories.js';

const quiet = () => {};

async function expectApiError(promise: Promise<unknown>, code: APIErrorCode, status: number): Promise<APIResponseError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(APIResponseError.isAPIResponseError(error), `an APIResponseError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.equal(error.status, status);
    assert.equal(typeof error.request_id, 'string');
    return error;
  }
  assert.fail(`expected ${code}`);
}

describe('official SDK against Folio', () => {
  const { server, fx } = useServer();
  before(async () => {
    for (const name of ['Bea', 'Cy', 'Di']) {
      await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users`, { name, email: `${name.toLowerCase()}@example.com` });
    }
  });

  for (const notionVersion of [undefined, LATEST_VERSION]) {
    describe(`notionVersion ${notionVersion ?? 'default (2025-09-03)'}`, () => {
      const client = () => new Client({ auth: fx.token, baseUrl: server.url, notionVersion, logger: quiet });

      test('users.me returns the bot', async () => {
        const me = await client().users.me({});
        assert.ok(isFullUser(me));
        assert.equal(me.type, 'bot');
        assert.equal(me.id, fx.connection.bot_id);
        if (me.type === 'bot' && 'owner' in me.bot) {
          assert.equal(me.bot.workspace_name, 'Test workspace');
          assert.equal(me.bot.owner.type, 'user');
        } else {
          assert.fail('the bot object of users.me is filled in');
        }
      });

      test('users.list pages through every user with page_size 1', async () => {
        const listed = await collectPaginatedAPI(client().users.list, { page_size: 1 });
        const names = listed.filter(isFullUser).map((u) => u.name);
        for (const name of ['Ada Lovelace', 'Bea', 'Cy', 'Di']) assert.ok(names.includes(name), `${name} in ${names}`);
        assert.equal(new Set(listed.map((u) => u.id)).size, listed.length);
        let count = 0;
        for await (const user of iteratePaginatedAPI(client().users.list, { page_size: 1 })) {
          assert.ok(isFullUser(user));
          count++;
        }
        assert.equal(count, listed.length);
        const page = await client().users.list({ page_size: 2 });
        assert.equal(page.results.length, 2);
        assert.equal(page.has_more, true);
        assert.equal(typeof page.next_cursor, 'string');
      });

      test('users.retrieve finds a person and misses an unknown id with ObjectNotFound', async () => {
        const user = await client().users.retrieve({ user_id: fx.user.id });
        assert.ok(isFullUser(user));
        assert.equal(user.type, 'person');
        if (user.type === 'person') assert.equal(user.person.email, 'ada@example.com');
        await expectApiError(client().users.retrieve({ user_id: randomUUID() }), APIErrorCode.ObjectNotFound, 404);
      });

      test('a bad token is Unauthorized; bad input is ValidationError', async () => {
        const bad = new Client({ auth: 'folio_not_a_token', baseUrl: server.url, notionVersion, logger: quiet });
        await expectApiError(bad.users.me({}), APIErrorCode.Unauthorized, 401);
        await expectApiError(client().users.list({ page_size: 101 }), APIErrorCode.ValidationError, 400);
        await expectApiError(client().users.list({ start_cursor: 'not-a-cursor' }), APIErrorCode.ValidationError, 400);
      });
    });
  }

  test('an unknown path through client.request is InvalidRequestURL', async () => {
    const client = new Client({ auth: fx.token, baseUrl: server.url, logger: quiet });
    await expectApiError(client.request({ path: 'no/such/endpoint', method: 'get' }), APIErrorCode.InvalidRequestURL, 400);
  });
});

describe('official SDK and rate limits', () => {
  const { server, fx } = useServer({ env: { FOLIO_RATE_LIMIT: '2', FOLIO_RATE_LIMIT_WINDOW: '1' } });

  test('without retries a burst surfaces RateLimited; with retries the SDK honours Retry-After and succeeds', async () => {
    const noRetry = new Client({ auth: fx.token, baseUrl: server.url, retry: false, logger: quiet });
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => noRetry.users.me({})));
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.ok(rejected.length >= 1);
    for (const r of rejected) {
      assert.ok(APIResponseError.isAPIResponseError(r.reason));
      assert.equal(r.reason.code, APIErrorCode.RateLimited);
    }
    const retrying = new Client({ auth: fx.token, baseUrl: server.url, retry: { maxRetries: 4 }, logger: quiet });
    const all = await Promise.all(Array.from({ length: 4 }, () => retrying.users.me({})));
    assert.equal(all.length, 4);
  });
});
