import type { ExperimentConfiguration, ExperimentRecord } from '../../../src/experiments/model/experiment.store.js';
import { ANALYSIS_DEFAULTS } from '../../../src/experiments/model/experiment-rules.js';

export const configuration = (over: Partial<ExperimentConfiguration> = {}): ExperimentConfiguration => ({
  variants: [
    { id: 'a', name: 'A', weight: 0.5, config: {} },
    { id: 'b', name: 'B', weight: 0.5, config: { layout: 'grid' } },
  ],
  trafficAllocation: 1,
  targetMetrics: ['ctr'],
  analysis: { ...ANALYSIS_DEFAULTS },
  ...over,
});

export function experiment(id: string, over: Partial<ExperimentRecord> = {}): ExperimentRecord {
  return {
    id,
    name: `experiment ${id}`,
    description: null,
    status: 'created',
    startDate: null,
    endDate: null,
    configuration: configuration(),
    phase: 0,
    conclusion: null,
    createdAt: 1000,
    updatedAt: 1000,
    ...over,
  };
}

export const event = (id: string, experimentId: string, action: string, at = 1000) => ({
  id,
  experimentId,
  at,
  actor: 'tester',
  action,
  before: { status: 'created' },
  after: { status: 'running', nested: { list: [1, 2] } },
});
