import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The ffmpeg binary to run: the one the operator configured (FOLIO_FFMPEG), else the static build that
 * @ffmpeg-installer/ffmpeg ships for this platform (no system package needed), else `ffmpeg` on PATH.
 * The package throws on platforms it has no build for, hence the fallback.
 */
export function ffmpegPath(configured: string | null = null): string {
  if (configured) return configured;
  try {
    return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return 'ffmpeg';
  }
}
