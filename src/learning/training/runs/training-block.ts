import type { RankerSettings } from '../../model/model-config.js';

/** One row of `training.positionBias.positions`. */
export interface PositionBiasRow {
  position: number;
  clicked: number;
  unclicked: number | null;
}

/** The version's `training` block: how a ranker was trained (every ranker version carries one). */
export function trainingBlock(
  settings: RankerSettings,
  positionBias?: { source: 'harvested' | 'config' | 'learned' | 'none'; harvestedPairs?: number; positions: PositionBiasRow[] },
): Record<string, unknown> {
  if (settings.trainingData !== 'clicks') return { data: settings.trainingData };
  return {
    data: 'clicks',
    debiasing: settings.debiasing,
    ...(settings.debiasing === 'ips' ? { propensityClip: settings.propensityClip } : {}),
    ...(positionBias ? { positionBias } : {}),
  };
}
