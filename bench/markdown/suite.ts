import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { renderBlocks } from '../../src/domain/markdown/render.js';
import { parseMarkdown } from '../../src/domain/markdown/parse.js';
import { benchPage } from './page.js';

const BLOCKS = 1000;
const SAMPLES = 200;
const TARGET_MS = 10;

/** Milliseconds of each of `samples` calls of `work`, after as many unmeasured ones to warm the JIT. */
function time(work: () => unknown, samples: number): number[] {
  for (let i = 0; i < samples; i++) work();
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    work();
    out.push(performance.now() - start);
  }
  return out;
}

/**
 * The converter alone, in process (no server, no store): rendering a page of 1,000 blocks of
 * every type with a markdown form (acceptance: median under 10 ms), and reading it back.
 */
export const suite: Suite = {
  name: 'markdown',
  description: `render (and parse) a ${BLOCKS}-block page of every block type as NFM`,
  async run(options) {
    const page = benchPage(BLOCKS);
    const render = () => renderBlocks(page, { urlOf: (id) => id, includeTranscript: false });
    const markdown = render().markdown;
    const rendering = time(render, SAMPLES);
    const parsing = time(() => parseMarkdown(markdown.replace(/<(page|database) url="[^"]*">[^<]*<\/\1>\n?/g, '')), Math.max(10, SAMPLES / 10));
    const target = (name: string, samples: number[]) => {
      const runs = samples.map((ms) => ({ requestsPerSecond: 1000 / ms, p50: ms, p99: ms, requests: 1 }));
      const sorted = [...samples].sort((a, b) => a - b);
      return {
        name,
        runs: runs.slice(0, 5),
        medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
        medianP50: median(samples),
        medianP99: sorted[Math.floor(sorted.length * 0.99)],
      };
    };
    const renderMedian = median(rendering);
    return {
      store: 'none (converter in process)',
      comparison: { targets: [target(`render ${BLOCKS} blocks`, rendering), target(`parse ${BLOCKS} blocks`, parsing)], failures: [], options },
      verdict: `render ${BLOCKS} blocks: median ${renderMedian.toFixed(2)} ms (target < ${TARGET_MS} ms: ${renderMedian < TARGET_MS ? 'met' : 'NOT met'})`,
      notes: [
        `${SAMPLES} timed renders after ${SAMPLES} warm-up ones; "requests/s" is renders per second, p50/p99 the milliseconds of one.`,
        `Page: ${BLOCKS} top-level blocks cycling through every type with a markdown form (and bookmarks, written <unknown>), ${markdown.length} characters of markdown.`,
      ],
    };
  },
};
