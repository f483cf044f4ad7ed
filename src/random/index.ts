/**
 * Seeded randomness for the pure code (stats simulations, click-model simulation, ranker bagging
 * and splits) and its tests: one generator, one shuffle. Imports nothing.
 */
export { mulberry32, type Random } from './mulberry32.js';
export { randomInt, sampleIndices, shuffleInPlace } from './shuffle.js';
export { createRng, type SeededRng } from './rng.js';
