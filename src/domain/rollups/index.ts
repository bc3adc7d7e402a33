export { ROLLUP_FUNCTIONS, isRollupFunction, rollupResultKind } from './rollupFunctions.js';
export type { RollupFunction, RollupResultKind } from './rollupFunctions.js';
export { computeRollup } from './computeRollup.js';
export type { RollupDate, RollupResult } from './computeRollup.js';
export type { RollupInput } from './rollupAtoms.js';
