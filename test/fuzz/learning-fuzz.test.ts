import { learningFixtures } from './support/fixtures.js';
import { learningSpecs } from './support/routes.js';
import { describeFuzz } from './support/suite.js';

// Issue #6: property-based fuzzing of the learning endpoints (models, training, serving, uploads).
describeFuzz('fuzzing learning endpoints', learningFixtures, learningSpecs);
