import { experimentFixtures } from './support/fixtures.js';
import { experimentSpecs } from './support/routes.js';
import { describeFuzz } from './support/suite.js';

// Issue #6: property-based fuzzing of the experiment, assignment and results endpoints.
describeFuzz('fuzzing experiment endpoints', experimentFixtures, experimentSpecs);
