import { ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import {
  restoreClickModel,
  toJudgments,
  toOpenSearchJudgments,
  type ClickModel,
  type JudgmentList,
  type SerializedClickModel,
} from '../../click-models/index.js';
import type { ExportQuery, JudgmentsQuery, RankBody, RankResponse } from './serving.schemas.js';
import type { ModelLookup, ModelVersionReads } from '../ports/model-registry.js';
import {
  compileModel,
  compileScorer,
  deserializeModel,
  explain,
  rowFromMap,
  sigmoid,
  toLtrPluginModel,
  toXgboostJson,
  type CompiledForest,
  type Model,
  type RowScorer,
} from '../../ranker/index.js';
import type { EngagementArtifact, RankerArtifact } from '../model/artifacts.js';
import type { ModelRecord } from '../model/model-types.js';
import { behaviourRow, encodeExamples } from '../model/feature-rows.js';
import { isUnknownResult } from '../model/artifacts.js';

type Loaded =
  | { kind: 'click'; click: ClickModel }
  | { kind: 'ranker'; artifact: RankerArtifact; model: Model; forest: CompiledForest; scorer: RowScorer; row: Float32Array }
  | { kind: 'engagement'; artifact: EngagementArtifact; model: Model; scorer: RowScorer };

interface Active {
  record: ModelRecord;
  version: number;
  loaded: Loaded;
}

/** A text file answer: exports are served raw (not in the envelope) so they can be saved and imported as they are. */
export interface FileAnswer {
  contentType: string;
  filename: string;
  body: string;
}

const CACHE_SIZE = 16;

function load(type: ModelRecord['type'], artifact: string): Loaded {
  const parsed: unknown = JSON.parse(artifact);
  if (type === 'click_model') return { kind: 'click', click: restoreClickModel(parsed as SerializedClickModel) };
  if (type === 'ranker') {
    const a = parsed as RankerArtifact;
    const model = deserializeModel(a.model);
    const forest = compileModel(model);
    return { kind: 'ranker', artifact: a, model, forest, scorer: compileScorer(forest), row: new Float32Array(forest.numFeatures) };
  }
  const a = parsed as EngagementArtifact;
  const model = deserializeModel(a.model);
  return { kind: 'engagement', artifact: a, model, scorer: compileScorer(compileModel(model)) };
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Keeps a read's answer until the registry changes (ServingCache.memo); the default reads every time. */
export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>;
const READ_EVERY_TIME: Memo = (_key, load) => load();

/**
 * Using a trained model: rerank results, export judgments, export the trees. Versions are cached
 * compiled (a version never changes); model records and active versions through `memo`, which the
 * module fills with the serving cache so a rank call reads no table.
 */
export class ServingService {
  private readonly cache = new Map<string, Loaded>();

  constructor(
    private readonly models: ModelLookup,
    private readonly versions: Pick<ModelVersionReads, 'getState' | 'getArtifact'>,
    private readonly memo: Memo = READ_EVERY_TIME,
  ) {}

  /** The active version, or `pinned` when given (an experiment's arm, an alias's fixed version). */
  private async active(modelId: string, pinned?: number): Promise<Active> {
    const record = await this.memo(`model:${modelId}`, () => this.models.get(modelId));
    if (!record) throw new NotFoundError(`model ${modelId} not found`);
    const version = pinned ?? (await this.memo(`state:${modelId}`, () => this.versions.getState(modelId)))?.activeVersion ?? null;
    if (version === null) throw new ConflictError(`model ${modelId} has no trained version yet (status ${record.status})`);
    const key = `${modelId}@${version}`;
    let loaded = this.cache.get(key);
    if (!loaded) {
      const artifact = await this.versions.getArtifact(modelId, version);
      if (artifact === undefined) throw new NotFoundError(`model ${modelId} version ${version} not found`);
      loaded = load(record.type, artifact);
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, loaded);
    }
    return { record, version, loaded };
  }

  /** Reranks with the active version, or with `pinned` (the side-by-side view of an alias's or a chosen version). */
  async rank(modelId: string, body: RankBody, withExplanation: boolean, pinned?: number): Promise<RankResponse> {
    const { version, loaded } = await this.active(modelId, pinned);
    const scored = body.results.map((r, i) => {
      const originalPosition = r.position ?? i + 1;
      const { score, explanation } = this.score(loaded, body, r, originalPosition, withExplanation);
      return { resultId: r.resultId, score, originalPosition, ...(explanation ? { explanation } : {}) };
    });
    scored.sort((a, b) => b.score - a.score || a.originalPosition - b.originalPosition);
    const scoreType = loaded.kind === 'click' ? 'relevance' : loaded.kind === 'ranker' ? 'ranker-margin' : 'probability';
    return { modelId, version, scoreType, results: scored.map((r, i) => ({ ...r, rank: i + 1 })) };
  }

  /** Scores of `results` (in the order given) with one version: what a ranking experiment's arm serves. */
  async scoreVersion(modelId: string, version: number, body: RankBody): Promise<number[]> {
    const { loaded } = await this.active(modelId, version);
    return body.results.map((r, i) => this.score(loaded, body, r, r.position ?? i + 1, false).score);
  }

  /**
   * The request features a version reads (`features` of each result): a dataset-trained ranker scores
   * those alone (`required`); a feedback-trained one reads its client features from the request first
   * and falls back to the values it stored at training; other models read none.
   */
  async featureNeeds(
    modelId: string,
    pinned?: number,
  ): Promise<{ version: number; type: ModelRecord['type']; features: string[]; required: boolean }> {
    const { record, version, loaded } = await this.active(modelId, pinned);
    const type = record.type;
    if (loaded.kind !== 'ranker') return { version, type, features: [], required: false };
    const behaviour = loaded.artifact.behaviour;
    if (behaviour) return { version, type, features: [...behaviour.clientFeatureNames], required: false };
    return { version, type, features: [...loaded.model.featureNames], required: true };
  }

  private score(loaded: Loaded, body: RankBody, r: RankBody['results'][number], position: number, withExplanation: boolean) {
    if (loaded.kind === 'click') {
      if (body.queryHash === undefined) throw ValidationError.field('/queryHash', 'is required to rank with a click model');
      const e = loaded.click.estimate(body.queryHash, r.resultId);
      // Pairs never seen score 0: they sort after every seen pair, in their original order.
      const score = e?.relevance ?? 0;
      return {
        score,
        explanation: withExplanation
          ? { bias: 0, contributions: { relevance: score, impressions: e?.impressions ?? 0, clicks: e?.clicks ?? 0 } }
          : undefined,
      };
    }
    let row: Float32Array;
    if (loaded.kind === 'ranker') {
      const behaviour = loaded.artifact.behaviour;
      row = behaviour
        ? behaviourRow(behaviour, body.queryHash, r.resultId, r.features)
        : rowFromMap(loaded.forest, r.features, undefined, loaded.row);
    } else {
      const c = body.context ?? {};
      row = encodeExamples(
        [
          {
            position,
            deviceType: c.deviceType ?? null,
            searchType: c.searchType ?? null,
            language: c.language ?? null,
            category: r.category ?? null,
            viewportWidth: c.viewport?.width ?? null,
            viewportHeight: c.viewport?.height ?? null,
            hour: c.hour ?? null,
          },
        ],
        loaded.artifact.vocabulary,
      );
    }
    const margin = loaded.scorer(row, 0);
    const score = loaded.kind === 'engagement' ? sigmoid(margin) : margin;
    if (!withExplanation) return { score, explanation: undefined };
    const parts = explain(loaded.model, row);
    // For probabilities the parts add up to the log-odds (the margin), not to the probability.
    return { score, explanation: { bias: parts.bias, contributions: parts.contributions } };
  }

  async judgments(modelId: string, query: JudgmentsQuery): Promise<FileAnswer> {
    const { record, version, loaded } = await this.active(modelId);
    if (loaded.kind !== 'click') throw new ConflictError(`model ${modelId} is a ${record.type}; judgments come from click models`);
    const all = toJudgments(loaded.click, { minImpressions: query.minImpressions, mapping: { method: query.grades } });
    const list: JudgmentList = { ...all, judgments: all.judgments.filter((j) => !isUnknownResult(j.resultId)) };
    const stem = `${modelId}-v${version}-judgments`;
    if (query.format === 'json') {
      const body = toOpenSearchJudgments(list, { name: `${record.name} v${version}` });
      return { contentType: 'application/json; charset=utf-8', filename: `${stem}.json`, body: JSON.stringify(body) };
    }
    if (query.format === 'csv') {
      const lines = ['queryHash,resultId,grade,relevance,impressions,clicks'];
      for (const j of list.judgments)
        lines.push([j.queryHash, j.resultId, j.grade, j.relevance, j.impressions, j.clicks].map(csvField).join(','));
      return { contentType: 'text/csv; charset=utf-8', filename: `${stem}.csv`, body: `${lines.join('\n')}\n` };
    }
    // RankLib judgment lines (`grade qid:N # docId query`), the Elasticsearch LTR demo's format.
    const qids = new Map<string, number>();
    const lines = [
      `# ${record.name} v${version}: ${list.algorithm} judgments, ${list.mapping.method} grades, thresholds ${list.mapping.thresholds.join(' ')}`,
    ];
    for (const j of list.judgments) {
      let qid = qids.get(j.queryHash);
      if (qid === undefined) {
        qid = qids.size + 1;
        qids.set(j.queryHash, qid);
      }
      lines.push(`${j.grade} qid:${qid} # ${j.resultId.replace(/\s/g, '_')} ${j.queryHash.replace(/[\r\n]/g, ' ')}`);
    }
    return { contentType: 'text/plain; charset=utf-8', filename: `${stem}.txt`, body: `${lines.join('\n')}\n` };
  }

  async export(modelId: string, query: ExportQuery): Promise<FileAnswer> {
    const { record, version, loaded } = await this.active(modelId);
    if (loaded.kind === 'click')
      throw new ConflictError(`model ${modelId} is a click_model; only tree models (ranker, engagement_predictor) export`);
    const stem = `${modelId}-v${version}`;
    const json = (value: unknown, suffix: string): FileAnswer => ({
      contentType: 'application/json; charset=utf-8',
      filename: `${stem}${suffix}.json`,
      body: JSON.stringify(value),
    });
    if (query.format === 'xgboost-json') return json(toXgboostJson(loaded.model), '-xgboost');
    if (query.format === 'ltr-plugin') return json(toLtrPluginModel(loaded.model, record.name), '-ltr-plugin');
    return json(loaded.artifact, '-native');
  }
}
