import type { Clock } from '../../common/clock.js';
import { SILENT_EVENTS, type DomainEventLog } from '../../common/domain-events.js';
import { newId } from '../../common/ids.js';
import { DAY_MS } from '../../common/time.js';
import { mulberry32 } from '../../random/index.js';
import { DEFAULT_EXPLORATION_DEPTH, overallPropensity, randPair, swapLoss } from '../../offline-eval/index.js';
import { fnv1a32, hashUnit } from '../bucketing/hash.js';
import type { ClickRelevance } from '../ports/click-relevance.js';
import type { ExplorationSettings, ExplorationStore } from './exploration.store.js';

/** The bounds the API accepts (the schema enforces them; the service keeps them in one place). */
export const EXPLORATION_LIMITS = { maxShare: 0.2, minDepth: 2, maxDepth: 20 } as const;
/** Which units are explored: hashUnit(SALT, unitId) < share, so a unit stays in or out while the share stays. */
export const EXPLORATION_SALT = 'searchloop:rank-exploration';
/** Settings are re-read at most this often on the rank path, so a change on another instance takes about a second. */
const SETTINGS_CACHE_MS = 1000;
/** The expected cost reads the latest searches of this window, at most this many. */
const COST_WINDOW_MS = 7 * DAY_MS;
const COST_SEARCHES = 200;

export interface ExplorationUpdate {
  share: number;
  depth?: number;
  method?: 'randpair';
}

export interface ExplorationView {
  share: number;
  depth: number;
  method: 'randpair';
  enabled: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
  shownLists: number;
  expectedCost: { ndcgAt10Loss: number; perExploredSearch: number; basis: string } | null;
}

/** What an explored search shows instead of the served order. */
export interface Exploration {
  ranking: string[];
  swapped: [number, number];
  /** P(this list | the unit is explored) = 1 / (k − 1). */
  propensity: number;
  /** share × propensity: P(this list) over all units. */
  overallPropensity: number;
}

const OFF = { share: 0, depth: DEFAULT_EXPLORATION_DEPTH, method: 'randpair' as const };

export interface ExplorationDependencies {
  store: ExplorationStore;
  clock: Clock;
  /** The latest click model's relevance (the learning module's, through the container); null: no cost. */
  relevance?: ClickRelevance | null;
  events?: DomainEventLog;
}

/**
 * Opt-in light exploration on POST /api/nous/rank (issue 26 §1): a configured share of units outside
 * every ranking experiment sees the served list with one adjacent pair of its top `depth` swapped
 * (RandPair, Joachims et al. 2017); every shown list is recorded with its propensity so intervention
 * harvesting can use it. Off by default.
 */
export class ExplorationService {
  private readonly store: ExplorationStore;
  private readonly clock: Clock;
  private readonly relevance: ClickRelevance | null;
  private readonly events: DomainEventLog;
  private cached: { settings: ExplorationSettings | null; loadedAt: number } | null = null;

  constructor(deps: ExplorationDependencies) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.relevance = deps.relevance ?? null;
    this.events = deps.events ?? SILENT_EVENTS;
  }

  async view(): Promise<ExplorationView> {
    const s = await this.store.settings();
    this.cached = { settings: s, loadedAt: this.clock.now() };
    const share = s?.share ?? OFF.share;
    const depth = s?.depth ?? OFF.depth;
    const [shownLists, expectedCost] = await Promise.all([
      share > 0 && s?.enabledAt != null ? this.store.countSince(s.enabledAt) : Promise.resolve(0),
      this.expectedCost(share, depth),
    ]);
    return {
      share,
      depth,
      method: s?.method ?? OFF.method,
      enabled: share > 0,
      updatedAt: s ? new Date(s.updatedAt).toISOString() : null,
      updatedBy: s?.updatedBy ?? null,
      shownLists,
      expectedCost,
    };
  }

  async update(body: ExplorationUpdate, actor: string): Promise<ExplorationView> {
    const before = await this.store.settings();
    const now = this.clock.now();
    const wasOn = (before?.share ?? 0) > 0;
    const after: ExplorationSettings = {
      share: body.share,
      depth: body.depth ?? OFF.depth,
      method: body.method ?? OFF.method,
      enabledAt: body.share > 0 ? (wasOn ? (before?.enabledAt ?? now) : now) : (before?.enabledAt ?? null),
      updatedAt: now,
      updatedBy: actor,
    };
    await this.store.save({ id: newId(), at: now, actor, before, after });
    this.cached = { settings: after, loadedAt: now };
    this.events.record(
      'rank.exploration.changed',
      {
        share: after.share,
        depth: after.depth,
        method: after.method,
        previousShare: before?.share ?? 0,
        previousDepth: before?.depth ?? OFF.depth,
        actor,
      },
      `rank exploration ${describe(after)} by ${actor}; was ${before ? describe(before) : 'off'}`,
    );
    return this.view();
  }

  /** Whether the unit is in the explored share: a salted hash of the unit id into [0, 1), compared with the share. */
  static explores(unitId: string, share: number): boolean {
    return share > 0 && hashUnit(EXPLORATION_SALT, unitId, 2) < share;
  }

  /**
   * The explored list for this search, recorded before it is answered, or null when the unit is not
   * explored (or the list has fewer than two results). The swap is drawn from a generator seeded by
   * (unit, query), so a retried call shows, and keeps, the same list.
   */
  async explore(input: { unitId: string; queryId: string; queryHash?: string; ranking: readonly string[] }): Promise<Exploration | null> {
    const s = await this.settings();
    if (!s || !ExplorationService.explores(input.unitId, s.share)) return null;
    const random = mulberry32(fnv1a32(`${EXPLORATION_SALT}\u0000${input.unitId}\u0000${input.queryId}`));
    const drawn = randPair(input.ranking, random, s.depth);
    if (!drawn.swapped) return null;
    await this.store.record({
      unitId: input.unitId,
      queryId: input.queryId,
      queryHash: input.queryHash ?? null,
      resultIds: drawn.ranking,
      swapped: drawn.swapped,
      propensity: drawn.propensity,
      share: s.share,
      recordedAt: this.clock.now(),
    });
    return {
      ranking: drawn.ranking,
      swapped: drawn.swapped,
      propensity: drawn.propensity,
      overallPropensity: overallPropensity(s.share, drawn.propensity),
    };
  }

  private async settings(): Promise<ExplorationSettings | null> {
    const now = this.clock.now();
    if (!this.cached || now - this.cached.loadedAt >= SETTINGS_CACHE_MS || now < this.cached.loadedAt) {
      this.cached = { settings: await this.store.settings(), loadedAt: now };
    }
    return this.cached.settings;
  }

  /**
   * NDCG@10 given up per search: share × the mean, over the latest logged searches, of the NDCG@10 an
   * explored search loses to its swap, on the latest click model's relevance (a pair it never saw
   * counts 0). Null without a click model or without logged searches.
   */
  private async expectedCost(share: number, depth: number): Promise<ExplorationView['expectedCost']> {
    if (!this.relevance) return null;
    const model = await this.relevance.latest();
    if (!model) return null;
    const searches = await this.store.recentSearches(this.clock.now() - COST_WINDOW_MS, COST_SEARCHES);
    if (searches.length === 0) return null;
    const byQuery = new Map<string, Set<string>>();
    for (const s of searches) {
      const ids = byQuery.get(s.queryHash) ?? new Set<string>();
      for (const id of s.resultIds) ids.add(id);
      byQuery.set(s.queryHash, ids);
    }
    const relevance = new Map<string, Map<string, number | null>>();
    for (const [queryHash, ids] of byQuery) relevance.set(queryHash, await this.relevance.relevance(model, queryHash, [...ids]));
    let seen = 0;
    let results = 0;
    let loss = 0;
    for (const s of searches) {
      const rel = relevance.get(s.queryHash)!;
      const gains = s.resultIds.map((id) => {
        const r = rel.get(id) ?? null;
        results += 1;
        if (r !== null) seen += 1;
        return r ?? 0;
      });
      loss += swapLoss(gains, depth);
    }
    const perExploredSearch = loss / searches.length;
    return {
      ndcgAt10Loss: share * perExploredSearch,
      perExploredSearch,
      basis:
        `click model ${model.modelId} v${model.version} over the latest ${searches.length} logged searches ` +
        `(${byQuery.size} queries, last 7 days); ${seen} of ${results} shown results have a relevance estimate, the rest count 0`,
    };
  }
}

function describe(s: Pick<ExplorationSettings, 'share' | 'depth'>): string {
  return s.share > 0 ? `on for ${+(s.share * 100).toFixed(2)} % of units (RandPair in the top ${s.depth})` : 'off';
}
