import type { VersionChange } from '../change.js';

/** Every modelled breaking change; the engine orders them by version. */
export const VERSION_CHANGES: readonly VersionChange[] = [];
