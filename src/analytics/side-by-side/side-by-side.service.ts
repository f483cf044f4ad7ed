import { ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import type { QueryDetail, ResultRow } from '../analytics.service.js';
import type { LoggedFeaturesStore } from './logged-features.store.js';
import { movements, relevanceDcg } from './movement.js';
import { parseRankerSpec, type RankerSpec } from './ranker-spec.js';
import type { SideBySideQuery, SideBySideView } from './side-by-side.schemas.js';

/** At most this many of the query's results are ranked (POST …/rank takes as many). */
export const SIDE_BY_SIDE_MAX_CANDIDATES = 1000;

export interface RankerInput {
  queryHash: string;
  results: { resultId: string; features?: Record<string, number> }[];
}

/**
 * The learning module's serving, handed in by the container (analytics imports no other module):
 * the same calls POST /api/nous/rank and POST /api/nous/learn/models/{modelId}/rank make.
 */
export interface RankerPort {
  /** What the alias serves now (null: the engine's order); throws NotFoundError for an alias never set. */
  alias(alias: string): Promise<{ modelId: string; version: number } | null>;
  /** The version that serves (the active one unless given), its model's type and the request features it reads. */
  featureNeeds(modelId: string, version?: number): Promise<{ version: number; type: string; features: string[]; required: boolean }>;
  /** The version's order of the results: by score, ties in the order given. */
  rank(
    modelId: string,
    version: number,
    input: RankerInput,
  ): Promise<{ scoreType: 'relevance' | 'ranker-margin' | 'probability'; results: { resultId: string; score: number }[] }>;
}

type Side = SideBySideView['left'];
type Served = Side['served'];
interface Resolved {
  served: Served;
  needs: { features: string[]; required: boolean };
}

export interface SideBySideDependencies {
  /** The query page's answer: figures, relevance and its results in the engine's order. */
  detail: (queryHash: string, query: Omit<SideBySideQuery, 'left' | 'right' | 'k'>) => Promise<QueryDetail>;
  rankers: RankerPort | null;
  features: LoggedFeaturesStore;
}

const ORIGINAL: Served = { source: 'original', alias: null, modelId: null, version: null, scoreType: null };

/**
 * One query's results as two rankers order them, next to each other: the engine's logged order,
 * an alias's model or a model version, each through the serving code `rank` uses, with the click
 * model's relevance, the query's figures and what moved between the sides.
 */
export class SideBySideService {
  constructor(private readonly deps: SideBySideDependencies) {}

  async compare(queryHash: string, query: SideBySideQuery): Promise<SideBySideView> {
    const { left = 'original', right, k = 10, ...window } = query;
    const specs = { left: specOf(left, '/left'), right: specOf(right, '/right') };
    const detail = await this.deps.detail(queryHash, window);
    const resolved = { left: await this.resolve(specs.left, '/left'), right: await this.resolve(specs.right, '/right') };
    const rows = detail.results.slice(0, SIDE_BY_SIDE_MAX_CANDIDATES);
    const candidates: RankerInput['results'] = rows.map((r) => ({ resultId: r.resultId }));
    await this.attachFeatures(detail, candidates, resolved);

    const order = async (r: Resolved): Promise<{ resultId: string; score: number | null }[]> => {
      if (r.served.modelId === null || candidates.length === 0) return candidates.map((c) => ({ resultId: c.resultId, score: null }));
      const ranked = await this.deps.rankers!.rank(r.served.modelId, r.served.version!, { queryHash, results: candidates });
      r.served.scoreType = ranked.scoreType;
      return ranked.results;
    };
    const orders = { left: await order(resolved.left), right: await order(resolved.right) };
    const ids = { left: orders.left.map((r) => r.resultId), right: orders.right.map((r) => r.resultId) };
    const byId = new Map(rows.map((r, i) => [r.resultId, { row: r, position: i + 1 }]));
    const side = (name: 'left' | 'right', other: 'left' | 'right'): Side => {
      const moved = movements(ids[name], ids[other], k);
      const results = orders[name].slice(0, k).map((r, i) => sideResult(byId.get(r.resultId)!, r.score, i + 1, moved[i]!));
      return {
        ranker: name === 'left' ? left : right,
        served: resolved[name].served,
        results,
        summary: {
          relevanceDcg: relevanceDcg(results.map((r) => r.relevance)),
          unjudged: results.filter((r) => r.relevance === null).length,
        },
      };
    };
    const leftTop = new Set(ids.left.slice(0, k));
    return {
      window: detail.window,
      dimension: detail.dimension,
      value: detail.value,
      dataFreshAsOf: detail.dataFreshAsOf,
      queryHash,
      queryText: detail.queryText,
      k,
      figures: detail.figures,
      relevanceModel: detail.relevanceModel,
      candidates,
      left: side('left', 'right'),
      right: side('right', 'left'),
      overlap: ids.right.slice(0, k).filter((id) => leftTop.has(id)).length,
    };
  }

  private async resolve(spec: RankerSpec, path: string): Promise<Resolved> {
    if (spec.kind === 'original') return { served: { ...ORIGINAL }, needs: { features: [], required: false } };
    const rankers = this.deps.rankers;
    if (!rankers) throw new NotFoundError('no rankers in this deployment');
    const target: { modelId: string; version?: number } | null = spec.kind === 'model' ? spec : await rankers.alias(spec.alias);
    const alias = spec.kind === 'alias' ? spec.alias : null;
    // An alias that serves no version (cleared, or its model not trained yet) serves the engine's order, as rank does.
    if (target === null) return { served: { ...ORIGINAL, alias }, needs: { features: [], required: false } };
    const needs = await rankers.featureNeeds(target.modelId, target.version);
    if (needs.type !== 'ranker')
      throw ValidationError.field(path, `model ${target.modelId} is a ${needs.type}; the side-by-side compares rankers`, 'querystring');
    return {
      served: { source: spec.kind, alias, modelId: target.modelId, version: needs.version, scoreType: null },
      needs,
    };
  }

  /**
   * Gives the candidates the logged features the sides' rankers read. A ranker that reads nothing
   * else (trained on an uploaded dataset) cannot rank a result whose features were never logged:
   * that is a 409 naming them, never an invented value.
   */
  private async attachFeatures(detail: QueryDetail, candidates: RankerInput['results'], sides: Record<'left' | 'right', Resolved>) {
    const names = new Set([...sides.left.needs.features, ...sides.right.needs.features]);
    if (names.size === 0 || candidates.length === 0) return;
    const logged = await this.deps.features.latest(
      detail.queryHash,
      candidates.map((c) => c.resultId),
      { from: Date.parse(detail.window.from), to: Date.parse(detail.window.to) },
    );
    for (const c of candidates) {
      const values = logged.get(c.resultId) ?? {};
      const kept = Object.fromEntries(Object.entries(values).filter(([name]) => names.has(name)));
      if (Object.keys(kept).length > 0) c.features = kept;
    }
    for (const name of ['left', 'right'] as const) {
      const { served, needs } = sides[name];
      if (!needs.required) continue;
      const lacking = candidates.filter((c) => needs.features.some((f) => c.features?.[f] === undefined));
      if (lacking.length === 0) continue;
      const missing = needs.features.filter((f) => lacking.some((c) => c.features?.[f] === undefined));
      const shown = (list: string[]) => `${list.slice(0, 5).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`;
      const message =
        `model ${served.modelId} v${served.version} ranks by request features alone, and feedback logged no ` +
        `${shown(missing)} for ${lacking.length} of the query's ${candidates.length} results (${shown(lacking.map((c) => c.resultId))}) ` +
        'in this window: log them in customMetadata.features';
      throw new ConflictError(message, [{ path: `/${name}`, message, in: 'querystring' }]);
    }
  }
}

function specOf(text: string, path: string): RankerSpec {
  const spec = parseRankerSpec(text);
  if (!spec) throw ValidationError.field(path, 'must be original, alias:<name> or model:<modelId>[@<version>]', 'querystring');
  return spec;
}

function sideResult(
  at: { row: ResultRow; position: number },
  score: number | null,
  rank: number,
  movement: Side['results'][number]['movement'],
): Side['results'][number] {
  const { row, position } = at;
  return {
    resultId: row.resultId,
    rank,
    score,
    originalPosition: position,
    relevance: row.relevance,
    impressions: row.impressions,
    clicks: row.clicks,
    ctr: row.ctr,
    movement,
  };
}
