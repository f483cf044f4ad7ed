import type { TrainParams } from '../../../ranker/index.js';
import type { TreeSettings } from '../../model/model-config.js';

/** The config names of the issue → the trainer's parameters (unset ones keep the trainer's defaults). */
export function trainParams(tree: TreeSettings): Partial<TrainParams> {
  const out: Partial<TrainParams> = {};
  for (const [key, value] of Object.entries(tree) as [keyof TreeSettings, number | undefined][]) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}
