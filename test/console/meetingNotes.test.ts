import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { synthesizeSpeech } from '../processing/speech.js';
import { createdNote, uploadRecording, waitForStatus } from '../meetingNotes/helpers.js';
import { assertAccessible, openConsole, screenshot, useBrowser } from './consoleBrowser.js';

type Json = Record<string, any>;

describe('console: meeting notes — status, the recording played from a seek point, the transcript, the queue', () => {
  const { server, fx } = useServer({ env: { FOLIO_WORKERS: '1', FOLIO_JOB_POLL_MS: '100' } });
  const browser = useBrowser();

  test('a processed note: transcript times seek the player, whose range requests reach the log; pause and resume the queue', { timeout: 120_000 }, async () => {
    const wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-console-note-')), 'standup.wav');
    await synthesizeSpeech('Good morning everyone. The release ships on Friday. Grace will write the notes.', wav);
    const page = await makeSharedPage(server, fx, 'Standups');
    const upload = await uploadRecording(server, fx, fs.readFileSync(wav), 'standup.wav', 'audio/wav');
    const note = await createdNote(server, fx, {
      title: 'Standup',
      language: 'en',
      source: { type: 'file_upload', file_upload_id: upload },
      parent: { type: 'page_id', page_id: page.id },
    });
    const { block } = await waitForStatus(server, fx, note.id, ['notes_ready', 'transcription_failed'], 90_000);
    assert.equal(block.meeting_notes.status, 'notes_ready');

    const described: Json = await admin(server, 'GET', `/meeting_notes/${note.id}`);
    assert.equal(described.root_id, page.id);
    assert.match(described.recording.url, new RegExp(`^${server.url}/files/${upload}/standup\\.wav\\?expires=`));
    const listed: Json = await admin(server, 'GET', `/workspaces/${fx.workspaceId}/meeting_notes`);
    assert.deepEqual(
      listed.results.map((n: Json) => n.id),
      [note.id],
    );

    const tab = await openConsole(browser(), server, `#/processing/${fx.workspaceId}`);
    // Processing titles the note from what was said; the list shows it by that title.
    await tab.getByRole('list', { name: 'Meeting notes' }).getByRole('link').first().click();
    await tab.getByTestId('note-status').filter({ hasText: 'notes_ready' }).waitFor();
    const transcript = tab.getByRole('region', { name: 'Transcript' });
    await transcript.getByRole('button', { name: /^Play from 00:00/ }).click();
    await tab.waitForFunction(() => {
      const media = document.querySelector('audio');
      return media !== null && !media.paused && media.currentTime > 0;
    });
    // A seek point past the start: the player asks for the bytes from there (206 in the log).
    await tab.evaluate(() => {
      const media = document.querySelector('audio')!;
      media.currentTime = media.duration * 0.7;
    });
    const recordingPath = new URL(described.recording.url).pathname;
    await waitUntil(async () => (await admin(server, 'GET', '/requests?status=206')).results.some((r: Json) => r.path === recordingPath));
    await tab.getByRole('region', { name: 'Summary' }).waitFor();
    await assertAccessible(tab, 'meeting note');
    await screenshot(tab, 'meeting-note');

    await tab.getByRole('link', { name: 'Meeting notes' }).first().click();
    await tab.goto(`${server.url}/console/#/processing`);
    await tab.getByRole('button', { name: 'Pause processing' }).click();
    await tab.getByRole('button', { name: 'Resume processing' }).waitFor();
    assert.equal((await admin(server, 'GET', '/processing')).paused, true);
    await tab.getByRole('cell', { name: 'meeting_notes' }).first().waitFor();
    await assertAccessible(tab, 'processing queue');
    await screenshot(tab, 'processing');
    await tab.getByRole('button', { name: 'Resume processing' }).click();
    await tab.getByRole('button', { name: 'Pause processing' }).waitFor();
    assert.equal((await admin(server, 'GET', '/processing')).paused, false);
    await tab.close();
  });
});

async function waitUntil(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
