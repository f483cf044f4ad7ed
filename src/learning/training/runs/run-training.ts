import { runClickModel } from './click-model-run.js';
import { runEngagement } from './engagement-run.js';
import type { TrainingInput, TrainingOutput } from './protocol.js';
import { runRankerFromClicks } from './clicks-run.js';
import { runRankerFromDataset, runRankerFromFeedback } from './ranker-run.js';

/** One training run, start to finish, as plain data in and out: what the worker thread executes. */
export function runTraining(input: TrainingInput): TrainingOutput {
  const s = input.settings;
  if (s.kind === 'click_model') return runClickModel(input, s);
  if (s.kind === 'ranker') {
    if (s.trainingData === 'dataset') return runRankerFromDataset(input, s);
    return s.trainingData === 'clicks' ? runRankerFromClicks(input, s) : runRankerFromFeedback(input, s);
  }
  return runEngagement(input, s);
}
