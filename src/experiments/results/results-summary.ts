import type { Analysed, ReadSettings } from './results-analysis.js';

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const num = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());
const pFmt = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);
const CORRECTION_NAMES: Record<string, string> = { holm: 'Holm', 'benjamini-hochberg': 'Benjamini–Hochberg', none: '' };

/**
 * One plain sentence per comparison, then the SRM verdict: what a reader needs to decide. Every number
 * of a sentence is on the read's scale: the lift, the interval that agrees with the adjusted p-value,
 * and that p-value.
 */
export function summarise(
  comparisons: readonly Pick<Analysed, 'metric' | 'variantName' | 'result'>[],
  settings: Pick<ReadSettings, 'correction' | 'method' | 'scale'>,
  srm: { passed: boolean; pValue: number | null; note: string | null },
): string {
  const after = CORRECTION_NAMES[settings.correction] ? ` after ${CORRECTION_NAMES[settings.correction]}` : '';
  const kind = settings.method === 'sequential' ? 'always-valid ' : '';
  const fmt = settings.scale === 'relative' ? pct : num;
  const sentences = comparisons.map(({ metric, variantName, result: r }) => {
    if (r.estimate === null || r.adjustedPValue === null) {
      return `${variantName}: ${metric} cannot be compared yet (${(r.reason ?? 'no data').toLowerCase().replaceAll('_', ' ')})`;
    }
    const verb = r.estimate >= 0 ? 'raises' : 'lowers';
    const interval = r.adjustedInterval ? ` [${fmt(r.adjustedInterval[0])}, ${fmt(r.adjustedInterval[1])}]` : '';
    const verdict = r.significant ? '' : ', not significant';
    const by = settings.scale === 'relative' ? 'by' : 'by an absolute';
    return `${variantName} ${verb} ${metric} ${by} ${fmt(Math.abs(r.estimate))}${interval}, ${kind}${pFmt(r.adjustedPValue)}${after}${verdict}`;
  });
  const srmText = srm.passed
    ? srm.note
      ? `SRM check not yet meaningful (${srm.note})`
      : `SRM check passed${srm.pValue !== null ? ` (p = ${srm.pValue.toFixed(3)})` : ''}`
    : `SRM check FAILED (p = ${srm.pValue?.toExponential(2)}): the split does not match the weights, so these results are untrustworthy`;
  return [...sentences, srmText].join('; ') + '.';
}
