import { emptyStats, type UnitStats } from '../../vocabulary/index.js';
import type { AttributableItem } from '../model/attribution-records.js';
import { planAttribution } from './attribution.js';

/** One session's items folded exactly as attribution folds them (arrival order), for the fake read models. */
export function foldSession(items: readonly AttributableItem[]): UnitStats {
  if (items.length === 0) return emptyStats();
  const sessionId = items[0]!.sessionId;
  const window = {
    experimentId: '',
    phase: 0,
    unitId: sessionId,
    variantId: '',
    exposedAt: -Infinity,
    phaseEndedAt: null,
    stats: emptyStats(),
  };
  const ordered = [...items].sort((a, b) => (a.id < b.id ? -1 : 1));
  return planAttribution(ordered, new Map([[sessionId, [window]]]), new Map()).units[0]?.stats ?? emptyStats();
}
