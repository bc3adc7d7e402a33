/**
 * Writes docs/changelog.md from the registered version change modules, so the page can never
 * drift from what the server does (test/platform/versioning.test.ts fails when it is stale).
 * Run: node --import tsx scripts/changelog.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VersionEngine } from '../src/versioning/engine.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'changelog.md');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, new VersionEngine().changelog());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
