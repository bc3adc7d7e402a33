import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

/**
 * The console's bundle (issue 28): served by Folio at /console from dist/console/, so every asset
 * path is under /console/ and nothing is fetched from anywhere else (usable offline).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [preact()],
  build: { outDir: '../dist/console', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  // `vite` in console/ while `npm start` runs: the console reloads as it is edited, against the real server.
  server: { proxy: { '/admin': 'http://127.0.0.1:3000', '/v1': 'http://127.0.0.1:3000', '/files': 'http://127.0.0.1:3000' } },
});
