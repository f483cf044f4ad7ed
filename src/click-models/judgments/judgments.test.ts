import { describe, expect, it } from 'vitest';
import { fitClickModel } from '../fit.js';
import { defaultThresholds, toJudgments, toOpenSearchJudgments } from './judgments.js';
import { simulateClickLog } from '../sessions/simulate.js';

const sim = simulateClickLog({ model: 'pbm', seed: 3, queries: 30, docsPerQuery: 12, sessions: 6000 });
const model = fitClickModel(sim.sessions, { algorithm: 'pbm' });

describe('toJudgments', () => {
  it('grades with fixed thresholds: grade = thresholds reached', () => {
    const list = toJudgments(model);
    expect(list.mapping).toEqual({ method: 'fixed', thresholds: [0.1, 0.3, 0.5, 0.7] });
    expect(list.judgments).toHaveLength(360);
    for (const j of list.judgments) {
      const expected = [0.1, 0.3, 0.5, 0.7].filter((t) => j.relevance >= t).length;
      expect(j.grade).toBe(expected);
    }
  });

  it('spreads grades evenly with quantile thresholds', () => {
    const list = toJudgments(model, { mapping: { method: 'quantile' } });
    const perGrade = [0, 1, 2, 3, 4].map((g) => list.judgments.filter((j) => j.grade === g).length);
    for (const n of perGrade) expect(n).toBeGreaterThanOrEqual(70);
    const [t1, t2, t3, t4] = list.mapping.thresholds;
    expect(t1 < t2 && t2 < t3 && t3 < t4).toBe(true);
  });

  it('takes custom thresholds and leaves out thinly observed pairs', () => {
    const list = toJudgments(model, { mapping: { method: 'fixed', thresholds: [0.2, 0.4, 0.6, 0.8] }, minImpressions: 1e9 });
    expect(list.judgments).toEqual([]);
    expect(list.mapping.thresholds).toEqual([0.2, 0.4, 0.6, 0.8]);
  });

  it('groups by query with the most relevant first', () => {
    const list = toJudgments(model);
    const firstQuery = list.judgments.filter((j) => j.queryHash === list.judgments[0]?.queryHash);
    expect(firstQuery).toHaveLength(12);
    for (let i = 1; i < firstQuery.length; i += 1) {
      expect((firstQuery[i] as { relevance: number }).relevance).toBeLessThanOrEqual(
        (firstQuery[i - 1] as { relevance: number }).relevance,
      );
    }
  });

  it('cuts COEC around 1', () => {
    expect(defaultThresholds('coec')).toEqual([0.5, 0.8, 1.25, 2]);
  });
});

describe('toOpenSearchJudgments', () => {
  it('produces the Search Relevance Workbench import body', () => {
    const list = toJudgments(model);
    const body = toOpenSearchJudgments(list, { name: 'clicks-2024-06', queryText: (h) => `text of ${h}` });
    expect(body.type).toBe('IMPORT_JUDGMENT');
    expect(body.name).toBe('clicks-2024-06');
    expect(body.description).toContain('pbm');
    expect(body.judgmentRatings).toHaveLength(30);
    const first = body.judgmentRatings[0];
    expect(first?.query).toMatch(/^text of q\d+$/);
    expect(first?.ratings).toHaveLength(12);
    for (const rating of first?.ratings ?? []) {
      expect(rating.docId).toMatch(/^q\d+-d\d+$/);
      expect(rating.rating).toMatch(/^[0-4]\.000$/);
    }
    // serialisable as-is
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });
});
