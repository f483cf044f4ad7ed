import { describe, expect, it } from 'vitest';
import type { ExperimentReport, InterleavedPair } from '../../src/demo/experiments.js';
import { describeClicksRanker, describeHeadToHead, trainingMode } from '../../src/demo/head-to-head.js';
import type { ModelView } from '../../src/demo/models.js';
import { formatProgress } from '../../src/demo/report.js';

/** The head-to-head's sentence and the clicks ranker's lines, from hand-made results (the real ones: demo-run.test.ts). */
const pair = (over: Partial<InterleavedPair>): ExperimentReport => ({
  experimentId: 'e3',
  name: 'Demo · ranker from clicks vs ranker from judgments (interleaving) · test',
  type: 'interleaving',
  headToHead: true,
  summary: '',
  trustworthy: true,
  metrics: [],
  results: {},
  pair: {
    variantId: 'judgments',
    opponentVariantId: 'clicks',
    queries: 500,
    wins: 40,
    losses: 60,
    ties: 400,
    share: 0.4,
    shareCi: [0.3, 0.5],
    pValue: 0.046,
    significant: true,
    winner: 'clicks',
    ...over,
  },
});

const view = (metrics: Record<string, unknown>, activeVersion: number | null = 1): ModelView => ({
  modelId: 'demo-ranker-clicks',
  type: 'ranker',
  status: activeVersion === null ? 'failed' : 'ready',
  activeVersion,
  error: activeVersion === null ? 'no data' : null,
  metrics,
  lastTraining: null,
});

describe('the head-to-head in words', () => {
  it('names the winner from the losing side of the pair: its wins, share and interval mirrored', () => {
    expect(describeHeadToHead(pair({}), 'clicks, unbiased-lambdamart')).toBe(
      'Head to head (interleaved, 500 queries): demo-ranker-clicks (clicks, unbiased-lambdamart) won 60 of 100 decided queries ' +
        'against demo-ranker (click-model judgments) (60.0 % [50.0 %, 70.0 %], p = 0.046) — significant: demo-ranker-clicks ranks better, ' +
        'by 10.0 points over a draw.',
    );
  });

  it('says "no winner yet" when not significant, and warns when the team balance failed', () => {
    const text = describeHeadToHead(
      pair({ wins: 55, losses: 45, share: 0.55, shareCi: [0.45, 0.65], pValue: 0.32, significant: false, winner: null }),
      null,
    );
    expect(text).toContain(
      'demo-ranker (click-model judgments) won 55 of 100 decided queries against demo-ranker-clicks (55.0 % [45.0 %, 65.0 %], p = 0.320)',
    );
    expect(text).toContain('not significant: no winner yet');
    expect(describeHeadToHead({ ...pair({}), trustworthy: false }, null)).toMatch(/team balance check failed/);
  });

  it('says so when no query was decided', () => {
    expect(describeHeadToHead(pair({ wins: 0, losses: 0, ties: 12, queries: 12, share: null, shareCi: null, pValue: null }), null)).toBe(
      'Head to head: no query decided yet (12 interleaved, none clicked to favour one ranker): run longer.',
    );
  });
});

describe("the clicks ranker's lines", () => {
  const metrics = {
    training: {
      data: 'clicks',
      debiasing: 'unbiased-lambdamart',
      positionBias: {
        source: 'learned',
        positions: [
          { position: 1, clicked: 1, unclicked: 1 },
          { position: 2, clicked: 0.8, unclicked: 0.95 },
        ],
      },
    },
    heldOut: { clicks: { metric: 'ips-ndcg@10', model: 0.61, logged: 0.55, groups: 40, sessions: 900 }, judgments: null },
  };

  it('print the mode, held-out clicks figures and the learned curve from the version metrics', () => {
    expect(trainingMode(view(metrics))).toBe('clicks, unbiased-lambdamart');
    expect(describeClicksRanker(view(metrics))).toEqual([
      'Ranker demo-ranker-clicks (clicks, unbiased-lambdamart): ready, version 1; held-out ips-ndcg@10 on clicks 0.610 vs logged order 0.550 (40 lists, 900 sessions).',
      '  position bias (learned), positions 1–2: clicked 1.00 0.80; unclicked 1.00 0.95',
    ]);
  });

  it('say why there is no version', () => {
    expect(describeClicksRanker(view({}, null))).toEqual(['Ranker demo-ranker-clicks: failed, no version (no data); no head-to-head.']);
  });
});

describe('the progress line', () => {
  it("names the head-to-head's interleaved arm apart from the engine interleaving's", () => {
    const line = formatProgress({
      seconds: 80,
      rate: 30,
      phase: 'experimenting',
      stats: {
        sessions: 2000,
        searches: 3000,
        clicks: 3100,
        feedbackItems: 40000,
        failedSessions: 0,
        arms: { engine: 1500, 'e1:ranker': 97, 'e2:interleaved': 81, 'e3:interleaved': 76 },
      },
      api: { requests: 3000, throttled: 0, failed: 0 },
      simNow: Date.UTC(2026, 10, 24, 20),
      experiments: [
        { experimentId: 'e1', name: 'ab', type: 'ab' },
        { experimentId: 'e2', name: 'il', type: 'interleaving' },
        { experimentId: 'e3', name: 'duel', type: 'interleaving', headToHead: true },
      ],
    });
    expect(line).toContain(' · ab + interleaving + head-to-head running (ranker 97 / interleaved 81 / head-to-head 76) · ');
  });
});
