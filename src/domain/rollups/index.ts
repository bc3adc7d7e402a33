export { isRollupFunction, rollupResultKind } from './rollupFunctions.js';
export type { RollupResultKind } from './rollupFunctions.js';
export { ROLLUP_FUNCTIONS, type RollupFunction } from '../../schemas/rollupFunctions.js';
export { computeRollup } from './computeRollup.js';
export type { RollupDate, RollupResult } from './computeRollup.js';
export type { RollupInput } from './rollupAtoms.js';
