import type { Suite } from './lib/suite.js';

/**
 * Every suite `npm run bench -- <name>` can run. Loaded on demand, so one suite's imports never
 * slow or break another. A suite lives in bench/<name>/suite.ts and exports `suite`.
 */
export const SUITES: Record<string, () => Promise<Suite>> = {
  'users-me': async () => (await import('./users-me/suite.js')).suite,
  search: async () => (await import('./search/suite.js')).suite,
  query: async () => (await import('./query/suite.js')).suite,
  uploads: async () => (await import('./uploads/suite.js')).suite,
  'meeting-notes': async () => (await import('./meeting-notes/suite.js')).suite,
  markdown: async () => (await import('./markdown/suite.js')).suite,
  webhooks: async () => (await import('./webhooks/suite.js')).suite,
  reset: async () => (await import('./reset/suite.js')).suite,
  instruments: async () => (await import('./instruments/suite.js')).suite,
  'instruments-paired': async () => (await import('./instruments/paired.js')).suite,
  prism: async () => (await import('./prism/suite.js')).suite,
  memory: async () => (await import('./memory/suite.js')).suite,
};

export const DEFAULT_SUITE = 'users-me';
