import type { Clock } from '../../common/clock.js';
import { ConflictError, ValidationError } from '../../common/errors.js';
import { phaseSeed } from '../model/experiment-rules.js';
import type { ExperimentRecord, VariantRecord } from '../model/experiment.store.js';
import type { AssignInput, Assignments } from '../ports/assignments.js';
import { duplicateIndexes, interleave, validateInterleaving, type InterleavedList, type Ranking } from '../interleaving/index.js';
import type { InterleavedQueryRecord, InterleavedQueryStore } from '../model/interleaved-query.store.js';
import { WriteBehind } from '../../common/write-behind.js';
import { PRODUCTION_ALIAS, type ModelCatalog } from '../ports/model-catalog.js';
import type { InterleaveBody, InterleaveResponse, SearchRankBody, SearchRankResponse } from './rank.schemas.js';
import type { ExplorationService } from './exploration.service.js';
import { checkFeatures } from './rank-features.js';

type Ordered = { resultId: string; score?: number }[];

export interface RankDependencies {
  /** The assignment sub-domain, through its port. */
  assignments: Assignments;
  catalog: Pick<ModelCatalog, 'score' | 'resolveAlias'>;
  /** Where interleaved lists are recorded. */
  lists: InterleavedQueryStore;
  load: (experimentId: string) => Promise<ExperimentRecord>;
  clock: Clock;
  /** Opt-in light exploration of the alias's or the original order (never an experiment's arm). */
  exploration?: Pick<ExplorationService, 'explore'> | null;
  /** Told about a failed write of interleaved lists (the group is kept and retried). */
  onListWriteError?: (error: unknown, lists: number) => void;
}

/**
 * The one search-time call: the unit's ranking experiment decides the order (its variant's pinned
 * model, or an interleaved list whose teams are recorded for crediting), else the production
 * alias's model, else the engine's own order.
 */
export class RankService {
  private readonly assignments: Assignments;
  private readonly catalog: Pick<ModelCatalog, 'score' | 'resolveAlias'>;
  private readonly load: (experimentId: string) => Promise<ExperimentRecord>;
  private readonly clock: Clock;
  private readonly exploration: Pick<ExplorationService, 'explore'> | null;
  /**
   * Interleaved lists are written behind the answer (WriteBehind): a team-draft answer never waits for
   * the disk. What a crash can cost: the lists answered since the last group commit began (queued or
   * in its transaction); clicks on those queries then find no list and are not credited to a team,
   * so the experiment counts those queries as never shown. A click that arrives before its list's
   * group has committed (within milliseconds) is likewise not credited. Shutdown drains the queue.
   */
  private readonly listWrites: WriteBehind<InterleavedQueryRecord>;

  constructor(deps: RankDependencies) {
    this.assignments = deps.assignments;
    this.catalog = deps.catalog;
    this.listWrites = new WriteBehind((rows) => deps.lists.recordMany(rows), { onError: deps.onListWriteError });
    this.load = deps.load;
    this.clock = deps.clock;
    this.exploration = deps.exploration ?? null;
  }

  async rank(body: SearchRankBody): Promise<SearchRankResponse> {
    checkFeatures(body.results);
    const dup = duplicateIndexes(body.results.map((r) => r.resultId))[0];
    if (dup) throw ValidationError.field(`/results/${dup.index}/resultId`, `"${dup.id}" repeats result ${dup.firstIndex}`);
    const decided = await this.assignments.rankingAssignment({ unitId: body.unitId, attributes: body.attributes } as AssignInput);
    if (decided) {
      const { record, variantId, phase } = decided;
      const c = record.configuration;
      if (c.type === 'interleaving') {
        const rankings = await Promise.all(c.variants.map((v) => this.variantRanking(v, body)));
        const list = this.interleaveFor(record, phase, body.unitId, body.queryId, rankings);
        await this.recordList(record, phase, body.unitId, body.queryId, list);
        return {
          queryId: body.queryId,
          results: list.results.map((r) => ({ resultId: r.resultId, rank: r.rank, team: r.team })),
          served: { source: 'experiment', experimentId: record.id, method: list.method },
        };
      }
      const variant = c.variants.find((v) => v.id === variantId)!;
      const ordered = await this.order(variant, body);
      return {
        queryId: body.queryId,
        results: ranked(ordered),
        served: {
          source: 'experiment',
          experimentId: record.id,
          variantId,
          ...(variant.model ? { modelId: variant.model.modelId, version: pinned(variant) } : {}),
        },
      };
    }
    const alias = await this.catalog.resolveAlias(PRODUCTION_ALIAS);
    if (alias) {
      const ordered = await this.byModel(alias.modelId, alias.version, body);
      return this.explored(body, ordered, { source: 'alias', alias: PRODUCTION_ALIAS, modelId: alias.modelId, version: alias.version });
    }
    return this.explored(
      body,
      body.results.map((r) => ({ resultId: r.resultId })),
      { source: 'original' },
    );
  }

  /** Outside every ranking experiment: the served order, or its explored swap when the unit is explored. */
  private async explored(body: SearchRankBody, ordered: Ordered, served: SearchRankResponse['served']): Promise<SearchRankResponse> {
    const exploration = await this.exploration?.explore({
      unitId: body.unitId,
      queryId: body.queryId,
      ...(body.queryHash !== undefined ? { queryHash: body.queryHash } : {}),
      ranking: ordered.map((r) => r.resultId),
    });
    if (!exploration) return { queryId: body.queryId, results: ranked(ordered), served };
    // Each result keeps its score; only the two swapped ranks change places.
    const byId = new Map(ordered.map((r) => [r.resultId, r]));
    return {
      queryId: body.queryId,
      results: ranked(exploration.ranking.map((id) => byId.get(id)!)),
      served,
      exploration: {
        swapped: exploration.swapped,
        propensity: exploration.propensity,
        overallPropensity: exploration.overallPropensity,
      },
    };
  }

  /** External rankers: the client sends each variant's list; we interleave, record and answer. */
  async interleave(experimentId: string, body: InterleaveBody): Promise<InterleaveResponse> {
    const record = await this.load(experimentId);
    const c = record.configuration;
    if (c.type !== 'interleaving') {
      throw new ConflictError(`experiment ${experimentId} is an A/B test; interleave applies to configuration.type "interleaving"`);
    }
    const ids = new Set(c.variants.map((v) => v.id));
    for (const key of Object.keys(body.rankings)) {
      if (!ids.has(key))
        throw ValidationError.field(`/rankings/${key}`, `"${key}" is not a variant of this experiment (${[...ids].join(', ')})`);
    }
    for (const v of c.variants) {
      if (!(v.id in body.rankings)) throw ValidationError.field(`/rankings/${v.id}`, `the ranking of variant "${v.id}" is required`);
    }
    const rankings: Ranking[] = c.variants.map((v) => ({ team: v.id, resultIds: body.rankings[v.id]! }));
    const issues = validateInterleaving(c.interleaving!.method, rankings, c.interleaving!.depth);
    const issue = issues[0];
    if (issue) {
      const path =
        issue.team === null
          ? '/rankings'
          : issue.resultIndex === null
            ? `/rankings/${issue.team}`
            : `/rankings/${issue.team}/${issue.resultIndex}`;
      throw ValidationError.field(path, issue.message);
    }
    const view = await this.assignments.assignOne(experimentId, { unitId: body.unitId });
    if (record.status !== 'running' && view.reason !== 'concluded_winner') {
      throw new ConflictError(`experiment ${experimentId} is ${record.status}; it interleaves only while running`);
    }
    if (!view.inExperiment) {
      // Outside the traffic, or concluded: the winner's (else the first variant's) list, unteamed.
      const shown = body.rankings[view.variantId ?? c.variants[0]!.id] ?? [];
      return {
        queryId: body.queryId,
        inExperiment: false,
        results: shown.map((resultId, i) => ({ resultId, rank: i + 1 })),
        served: { source: 'original', experimentId },
      };
    }
    const list = this.interleaveFor(record, view.phase, body.unitId, body.queryId, rankings);
    await this.recordList(record, view.phase, body.unitId, body.queryId, list);
    return {
      queryId: body.queryId,
      inExperiment: true,
      results: list.results.map((r) => ({ resultId: r.resultId, rank: r.rank, team: r.team })),
      served: { source: 'experiment', experimentId, method: list.method },
    };
  }

  private interleaveFor(record: ExperimentRecord, phase: number, unitId: string, queryId: string, rankings: Ranking[]): InterleavedList {
    const c = record.configuration;
    return interleave({
      method: c.interleaving!.method,
      rankings,
      depth: c.interleaving!.depth,
      key: { seed: phaseSeed(record.id, c, phase), phase, unitId, queryId },
    });
  }

  private async recordList(record: ExperimentRecord, phase: number, unitId: string, queryId: string, list: InterleavedList): Promise<void> {
    const teamIndex = new Map(list.teams.map((t, i) => [t, i]));
    await this.listWrites.submit([
      {
        experimentId: record.id,
        phase,
        unitId,
        queryId,
        recordedAt: this.clock.now(),
        teams: [...list.teams],
        depth: list.depth,
        results: list.results.map((r) => [r.resultId, teamIndex.get(r.team)!]),
        credit: null,
      },
    ]);
  }

  /** Resolves once every interleaved list answered before the call is written (readers; erasure). */
  settled(): Promise<void> {
    return this.listWrites.settled();
  }

  /** Resolves once every interleaved list answered so far is written (shutdown; tests). */
  drain(): Promise<void> {
    return this.listWrites.drain();
  }

  private async variantRanking(v: VariantRecord, body: SearchRankBody): Promise<Ranking> {
    return { team: v.id, resultIds: (await this.order(v, body)).map((r) => r.resultId) };
  }

  private order(v: VariantRecord, body: SearchRankBody): Promise<Ordered> {
    if (!v.model) return Promise.resolve(body.results.map((r) => ({ resultId: r.resultId })));
    return this.byModel(v.model.modelId, pinned(v), body);
  }

  /** The model's order: by score, ties kept in the engine's order. */
  private async byModel(modelId: string, version: number, body: SearchRankBody): Promise<Ordered> {
    const { scores } = await this.catalog.score(modelId, version, {
      ...(body.queryHash !== undefined ? { queryHash: body.queryHash } : {}),
      results: body.results,
      ...(body.context ? { context: body.context } : {}),
    });
    return body.results
      .map((r, i) => ({ resultId: r.resultId, score: scores[i]!, i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map(({ resultId, score }) => ({ resultId, score }));
  }
}

const pinned = (v: VariantRecord): number => v.model!.pinnedVersion ?? v.model!.version!;

function ranked(ordered: Ordered) {
  return ordered.map((r, i) => ({ resultId: r.resultId, rank: i + 1, ...(r.score !== undefined ? { score: r.score } : {}) }));
}
