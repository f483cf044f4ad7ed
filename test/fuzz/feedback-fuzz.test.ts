import { feedbackFixtures } from './support/fixtures.js';
import { feedbackSpecs } from './support/routes.js';
import { describeFuzz } from './support/suite.js';

// Issue #6: property-based fuzzing of the feedback endpoints.
describeFuzz('fuzzing feedback endpoints', feedbackFixtures, feedbackSpecs);
