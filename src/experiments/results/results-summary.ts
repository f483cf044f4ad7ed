import type { ComparisonResult } from './results-analysis.js';

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const pFmt = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);
const CORRECTION_NAMES: Record<string, string> = { holm: 'Holm', 'benjamini-hochberg': 'Benjamini–Hochberg', none: '' };

/** One plain sentence per comparison, then the SRM verdict: what a reader needs to decide. */
export function summarise(
  comparisons: { metric: string; variantName: string; result: ComparisonResult }[],
  correction: string,
  method: string,
  srm: { passed: boolean; pValue: number | null; note: string | null },
): string {
  const after = CORRECTION_NAMES[correction] ? ` after ${CORRECTION_NAMES[correction]}` : '';
  const kind = method === 'sequential' ? 'always-valid ' : '';
  const sentences = comparisons.map(({ metric, variantName, result: r }) => {
    if (r.relativeLift === null || r.adjustedPValue === null) {
      return `${variantName}: ${metric} cannot be compared yet (${(r.reason ?? 'no data').toLowerCase().replaceAll('_', ' ')})`;
    }
    const verb = r.relativeLift >= 0 ? 'raises' : 'lowers';
    const interval = r.relativeCi ? ` [${pct(r.relativeCi[0])}, ${pct(r.relativeCi[1])}]` : '';
    const verdict = r.significant ? '' : ', not significant';
    return `${variantName} ${verb} ${metric} by ${pct(Math.abs(r.relativeLift))}${interval}, ${kind}${pFmt(r.adjustedPValue)}${after}${verdict}`;
  });
  const srmText = srm.passed
    ? srm.note
      ? `SRM check not yet meaningful (${srm.note})`
      : `SRM check passed${srm.pValue !== null ? ` (p = ${srm.pValue.toFixed(3)})` : ''}`
    : `SRM check FAILED (p = ${srm.pValue?.toExponential(2)}): the split does not match the weights, so these results are untrustworthy`;
  return [...sentences, srmText].join('; ') + '.';
}
