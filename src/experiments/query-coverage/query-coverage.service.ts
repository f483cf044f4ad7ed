import { toIso } from '../../common/clock.js';
import { ValidationError } from '../../common/errors.js';
import { decodeCursor, toPage, type Page } from '../../common/pagination.js';
import type { QueryCoverageQuery, QueryCoverageView } from './query-coverage.schemas.js';
import type { CoverageKey, PhaseQueryCoverage, QueryCoverageStore } from './query-coverage.store.js';

const keyOf = (p: PhaseQueryCoverage) => `${p.lastSeen}.${p.phase}.${p.experimentId}`;

function decodeCoverageCursor(cursor: string | undefined): CoverageKey | undefined {
  const key = decodeCursor(cursor);
  if (key === undefined) return undefined;
  const match = /^(\d{1,15})\.(\d{1,9})\.(.+)$/.exec(key);
  if (!match) throw ValidationError.field('/cursor', 'is not a cursor this service issued', 'querystring');
  return { lastSeen: Number(match[1]), phase: Number(match[2]), experimentId: match[3]! };
}

/**
 * Abandonment as the experiment metric defines it. A first click counts under its own item's hash, so a
 * client that changes the hash within a search can give a query more clicked searches than searches: 0 then.
 */
const abandonment = (searches: number, clicked: number) => (searches > 0 ? Math.max(0, 1 - clicked / searches) : null);

function toView(p: PhaseQueryCoverage): QueryCoverageView {
  const rank = (id: string) => {
    const i = p.variantOrder.indexOf(id);
    return i < 0 ? p.variantOrder.length : i;
  };
  const variants = [...p.variants].sort((a, b) => rank(a.variantId) - rank(b.variantId));
  return {
    experimentId: p.experimentId,
    name: p.name,
    status: p.status,
    type: p.type,
    phase: p.phase,
    lastSeen: toIso(p.lastSeen),
    variants: variants.map((v) => ({
      variantId: v.variantId,
      searches: v.searches,
      clickedSearches: v.clickedSearches,
      abandonmentRate: abandonment(v.searches, v.clickedSearches),
      lastSeen: toIso(v.lastSeen),
    })),
  };
}

/** Which experiments cover a query: the phases that attributed its searches, from the sums attribution keeps. */
export class QueryCoverageService {
  constructor(private readonly store: QueryCoverageStore) {}

  /** Most recently seen first; a query no experiment attributed has an empty list, not a 404. */
  async experimentsCovering(queryHash: string, query: QueryCoverageQuery): Promise<Page<QueryCoverageView>> {
    const rows = await this.store.phasesCovering(queryHash, decodeCoverageCursor(query.cursor), query.limit + 1);
    const page = toPage(rows, query.limit, keyOf);
    return { items: page.items.map(toView), nextCursor: page.nextCursor };
  }
}
