import { feedbackFixtures } from './support/fixtures.js';
import { analyticsSpecs } from './support/routes.js';
import { describeFuzz } from './support/suite.js';

// Issue 12: property-based fuzzing of the search analytics endpoints (over the feedback fixtures).
describeFuzz('fuzzing analytics endpoints', feedbackFixtures, () => analyticsSpecs());
