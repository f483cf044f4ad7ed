import { mulberry32 } from '../../../src/random/index.js';
import { compileModel, ndcgAt, scoreBatch } from '../../../src/ranker/index.js';
import type { RankerArtifact } from '../../../src/learning/model/artifacts.js';
import { behaviourRow } from '../../../src/learning/model/feature-rows.js';
import type { DatabaseHandle } from '../../../src/storage/database.js';
import { insertBatches } from '../../../src/storage/batch-write.js';
import { toFeedbackRow, type FeedbackItemFields } from '../../../src/storage/tables/feedback-row.js';
import { emptyColumns, appendRow, type FeedbackColumns } from '../../../src/learning/training/runs/feedback-columns.js';

/**
 * A seeded click log for learning to rank from clicks: `queries` queries of `docs` results; each
 * result has a hidden relevance (0–1) and two client features, `quality` (the relevance plus
 * noise) and `noise`. Queries are searched with a skewed popularity (weight 1/(q + 1)). Three
 * loggers take turns per search: A shows the results by a noisier score, B and C swap A's
 * adjacent pairs (1,2),(3,4)… and (2,3),(4,5)…, so the same result is shown at several positions
 * and position bias can be harvested. Users are PBM: they examine position p with probability
 * (1/p)^eta and click an examined result with probability equal to its relevance. Every
 * `ratedEvery`-th query has explicit ratings (0–4 from its relevance) on 4 results.
 */
export interface ClickSimOptions {
  queries: number;
  docs: number;
  depth: number;
  searches: number;
  seed: number;
  eta?: number;
  /** First event time (epoch ms); searches are one second apart. */
  start: number;
  ratedEvery?: number;
  /** Width of the uniform noise on `quality`. Default 0.15. */
  featureNoise?: number;
  /** 1: logger A alone, every query's list always the same (nothing to harvest). Default 3. */
  loggers?: 1 | 3;
  /** Prefix of item, search and session ids, so two logs can share a database. Default `c`. */
  prefix?: string;
}

export interface ClickSim {
  items: FeedbackItemFields[];
  /** queryHash → resultId → relevance. */
  relevance: Map<string, Map<string, number>>;
  /** queryHash → resultId → client features. */
  features: Map<string, Map<string, Record<string, number>>>;
}

export function simulateClicks(o: ClickSimOptions): ClickSim {
  const random = mulberry32(o.seed);
  const eta = o.eta ?? 1;
  const relevance = new Map<string, Map<string, number>>();
  const features = new Map<string, Map<string, Record<string, number>>>();
  const loggerScore = new Map<string, Map<string, number>>();
  for (let q = 0; q < o.queries; q += 1) {
    const rel = new Map<string, number>();
    const feats = new Map<string, Record<string, number>>();
    const logged = new Map<string, number>();
    for (let d = 0; d < o.docs; d += 1) {
      const id = `q${q}-d${d}`;
      const r = random() ** 2;
      rel.set(id, r);
      feats.set(id, { quality: Number((r + (o.featureNoise ?? 0.15) * (random() - 0.5)).toFixed(4)), noise: Number(random().toFixed(4)) });
      logged.set(id, r + 0.6 * (random() - 0.5));
    }
    relevance.set(`query${q}`, rel);
    features.set(`query${q}`, feats);
    loggerScore.set(`query${q}`, logged);
  }
  const popularity = Array.from({ length: o.queries }, (_, q) => 1 / (q + 1));
  const total = popularity.reduce((a, b) => a + b, 0);
  const pick = (): number => {
    let u = random() * total;
    for (let q = 0; q < o.queries; q += 1) if ((u -= popularity[q] as number) <= 0) return q;
    return o.queries - 1;
  };
  const items: FeedbackItemFields[] = [];
  const prefix = o.prefix ?? 'c';
  let n = 0;
  const item = (base: FeedbackItemFields, over: Partial<FeedbackItemFields>): void => {
    items.push({ ...base, ...over, id: `${prefix}-${String(n).padStart(8, '0')}`, seq: n });
    n += 1;
  };
  for (let s = 0; s < o.searches; s += 1) {
    const q = pick();
    const queryHash = `query${q}`;
    const score = loggerScore.get(queryHash) as Map<string, number>;
    const list = [...score.keys()].sort((a, b) => (score.get(b) as number) - (score.get(a) as number));
    const logger = s % (o.loggers ?? 3);
    for (let i = logger - 1; logger > 0 && i + 1 < list.length; i += 2) [list[i], list[i + 1]] = [list[i + 1]!, list[i]!];
    const time = o.start + s * 1000;
    const base: FeedbackItemFields = {
      id: '',
      seq: 0,
      submissionId: `${prefix}-sub${s}`,
      sessionId: `${prefix}-sess${Math.floor(s / 3)}`,
      queryId: `${prefix}-search${s}`,
      rating: null,
      receivedAt: time,
      queryHash,
      engagementType: null,
      searchType: null,
      timeToClick: null,
      deviceType: null,
      viewportWidth: null,
      viewportHeight: null,
      scrollDepth: null,
      category: null,
      language: null,
      userAction: 'impression',
      eventTime: time,
      resultId: null,
      position: null,
      dwellTime: null,
      extraMetadata: null,
    };
    list.slice(0, o.depth).forEach((resultId, i) => {
      const position = i + 1;
      const extraMetadata = JSON.stringify({ features: features.get(queryHash)!.get(resultId) });
      item(base, { userAction: 'impression', resultId, position, extraMetadata });
      const r = relevance.get(queryHash)!.get(resultId)!;
      if (random() < (1 / position) ** eta && random() < r)
        item(base, { userAction: 'click', eventTime: time + 1, resultId, position, dwellTime: 20_000 });
    });
    // A few early searches of every ratedEvery-th query rate 4 of the results shown (logger's ranks 2, 4, 6, 8).
    if (o.ratedEvery !== undefined && q % o.ratedEvery === 0 && s < o.queries * 3)
      [1, 3, 5, 7]
        .map((i) => list[i] as string)
        .forEach((resultId, i) =>
          item(base, {
            userAction: 'rate',
            eventTime: time + 2,
            resultId,
            position: i + 1,
            rating: Math.round(4 * relevance.get(queryHash)!.get(resultId)!),
          }),
        );
  }
  return { items, relevance, features };
}

export async function writeClicks(database: DatabaseHandle, sim: ClickSim): Promise<void> {
  await insertBatches(sim.items.map(toFeedbackRow), (rows) => database.db.insertInto('feedback_items').values(rows).execute());
}

/** The same items as the training read model hands a run (oldest first). */
export function columnsOf(sim: ClickSim): FeedbackColumns {
  const cols = emptyColumns();
  const sorted = [...sim.items].sort((a, b) => a.eventTime - b.eventTime || (a.id < b.id ? -1 : 1));
  for (const i of sorted)
    appendRow(cols, {
      queryId: i.queryId,
      queryHash: i.queryHash,
      resultId: i.resultId,
      position: i.position,
      action: i.userAction,
      eventTime: i.eventTime,
      rating: i.rating,
      dwellTime: i.dwellTime,
      deviceType: i.deviceType,
      searchType: i.searchType,
      language: i.language,
      category: i.category,
      viewportWidth: i.viewportWidth,
      viewportHeight: i.viewportHeight,
      extra: i.extraMetadata,
    });
  return cols;
}

/**
 * Mean NDCG@10 on the true relevance (grades 0–4) of the version's order of each query's results.
 * `known`: scored as a query of the window (its stored behaviour); else as an unseen query (client features only).
 */
export function trueNdcg(artifact: RankerArtifact, sim: ClickSim, known: boolean): number {
  const forest = compileModel(artifact.model);
  const features: number[] = [];
  const labels: number[] = [];
  const groups = [0];
  for (const [q, docs] of sim.features) {
    for (const [id, f] of docs) {
      // known: a query of the window, its behaviour as stored; unseen: the client's features only.
      for (const x of behaviourRow(artifact.behaviour!, known ? q : undefined, id, f)) features.push(x);
      labels.push(Math.round(4 * sim.relevance.get(q)!.get(id)!));
    }
    groups.push(labels.length);
  }
  return ndcgAt(labels, scoreBatch(forest, Float32Array.from(features)), groups, 10);
}
