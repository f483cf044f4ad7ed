// One place for how numbers read on screen, so the browser tests can compute the same text from the API.

const dash = '—';

/** A share or relative lift as a percentage: 0.0412 → "4.12 %"; signed adds "+" to gains. */
export function percent(value: number | null | undefined, digits = 2, signed = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  const text = `${(value * 100).toFixed(digits)} %`;
  return signed && value > 0 ? `+${text}` : text;
}

/** A metric value or absolute lift with 4 significant digits; signed adds "+" to gains. */
export function number(value: number | null | undefined, signed = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  const abs = Math.abs(value);
  const text = abs !== 0 && (abs < 1e-3 || abs >= 1e6) ? value.toExponential(3) : String(Number(value.toPrecision(4)));
  return signed && value > 0 ? `+${text}` : text;
}

/** A lift on a results scale: relative as a percentage, absolute in the metric's units. */
export function scaled(scale: string, value: number | null | undefined, signed = false): string {
  return scale === 'relative' ? percent(value, 2, signed) : number(value, signed);
}

/** A probability such as chance to beat control: one decimal, never a false certainty of 0 % or 100 %. */
export function chance(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  if (value > 0.999) return '> 99.9 %';
  if (value < 0.001) return '< 0.1 %';
  return percent(value, 1);
}

/** p-values: 4 decimals, "< 0.0001" below that. */
export function pValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  return value < 1e-4 ? '< 0.0001' : value.toFixed(4);
}

/** An interval as "[lo, hi]" with the formatter of its values. */
export function interval(ci: readonly number[] | null | undefined, format: (v: number) => string): string {
  if (!ci || ci.length !== 2) return dash;
  return `[${format(ci[0]!)}, ${format(ci[1]!)}]`;
}

export function integer(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  return Math.round(value).toLocaleString('en-US');
}

/** Times in UTC, as the API counts days: "2026-11-22 14:03 UTC". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return dash;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return dash;
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  const future = seconds < 0;
  const s = Math.abs(seconds);
  const text =
    s < 60 ? `${s} s` : s < 3600 ? `${Math.round(s / 60)} min` : s < 86_400 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} d`;
  return future ? `in ${text}` : `${text} ago`;
}

export function days(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  if (value < 1) return 'less than a day';
  return `${Math.ceil(value).toLocaleString('en-US')} day${Math.ceil(value) === 1 ? '' : 's'}`;
}

/** A camelCase key the API reports (a training count such as `trainRows`) as words: "train rows". */
export function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * The metric catalogue in words, one entry a metric: `short` for tight places (the experiment list's
 * headline, the form's checkboxes), `label` for sentences and captions, `means` for what it measures.
 * The API's keys stay in tooltips and the docs. new/metric-fields.tsx checks it against the API's enum
 * (a metric added to the catalogue fails the type check until it is named here).
 */
export const METRIC_TERMS = {
  ctr: { short: 'CTR', label: 'click-through rate', means: 'clicks per impression' },
  abandonment_rate: { short: 'Abandonment', label: 'abandonment rate', means: 'searches without a click' },
  mrr: { short: 'MRR', label: 'mean reciprocal rank', means: 'reciprocal rank of the first click' },
  mean_rating: { short: 'Rating', label: 'mean rating', means: 'mean explicit rating' },
  dwell_time: { short: 'Dwell time', label: 'dwell time', means: 'dwell time per click' },
  time_to_click: { short: 'Time to click', label: 'time to click', means: 'time to the first click' },
  satisfied_click_rate: { short: 'Satisfied clicks', label: 'satisfied click rate', means: 'clicks with 30 s+ dwell' },
  scroll_depth: { short: 'Scroll depth', label: 'scroll depth', means: 'how far down the results sessions scroll' },
  conversion_rate: { short: 'Conversion', label: 'conversion rate', means: 'sessions that convert' },
  time_to_click_p50: { short: 'Time to click p50', label: 'median time to click', means: 'median time to click (per click)' },
  time_to_click_p90: { short: 'Time to click p90', label: '90th percentile of time to click', means: '90th percentile time to click' },
  dwell_time_p50: { short: 'Dwell time p50', label: 'median dwell time', means: 'median dwell time (per click)' },
  dwell_time_p90: { short: 'Dwell time p90', label: '90th percentile of dwell time', means: '90th percentile dwell time' },
} as const satisfies Record<string, { short: string; label: string; means: string }>;

/**
 * The offline evaluation's metrics that the online catalogue does not name (issue 26); `mrr` and
 * `abandonment_rate` mean the same offline and online and are named above. Kept apart from
 * METRIC_TERMS because the new-experiment form offers every key of that one as a target metric.
 * `ctr@k` is named by offlineTerm below.
 */
export const OFFLINE_METRIC_TERMS = {
  clicks_per_search: { short: 'Clicks/search', label: 'clicks per search', means: 'expected clicks in the top results per search' },
  satisfied_clicks: { short: 'Satisfied clicks', label: 'satisfied clicks per search', means: 'expected satisfied clicks per search' },
} as const satisfies Record<string, { short: string; label: string; means: string }>;

/** `ctr@10` → "CTR@10", "click-through rate in the top 10". */
function offlineTerm(metric: string): { short: string; label: string } | undefined {
  const k = /^ctr@(\d+)$/.exec(metric)?.[1];
  if (k !== undefined) return { short: `CTR@${k}`, label: `click-through rate in the top ${k}` };
  return (OFFLINE_METRIC_TERMS as Partial<Record<string, { short: string; label: string }>>)[metric];
}

/** Whether a lift of the metric is good news: abandonment and the time metrics fall when search gets better. */
export function lowerIsBetter(metric: string): boolean {
  return metric === 'abandonment_rate' || metric.startsWith('time_to_click');
}

const termOf = (metric: string) =>
  (METRIC_TERMS as Partial<Record<string, { short: string; label: string }>>)[metric] ?? offlineTerm(metric);

/** A metric in words: the catalogue's label, or any other key (snake_case or camelCase) spelled out. */
export function metricLabel(metric: string): string {
  return termOf(metric)?.label ?? words(metric.replaceAll('_', ' '));
}

/** A metric's short name ("mrr" → "MRR"), for headlines and checkboxes. */
export function metricShortLabel(metric: string): string {
  return termOf(metric)?.short ?? words(metric.replaceAll('_', ' '));
}

/** Sentence case for a label that opens a line or a heading. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The results API's summary sentence with its metric keys in words ("ranker raises mrr by 12 %" →
 * "… raises mean reciprocal rank by …"). Only the places the sentence names a metric are touched, so a
 * variant called "ctr-boost" keeps its name.
 */
export function readableSummary(summary: string, metrics: readonly string[]): string {
  let out = summary;
  for (const m of metrics) {
    const label = metricLabel(m);
    out = out.replaceAll(` raises ${m} by`, ` raises ${label} by`).replaceAll(` lowers ${m} by`, ` lowers ${label} by`);
    out = out.replaceAll(`: ${m} cannot be compared`, `: ${label} cannot be compared`);
  }
  return out;
}
