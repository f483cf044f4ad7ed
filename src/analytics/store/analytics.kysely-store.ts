import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { KyselyAnalyticsFolds, type FoldCapabilities } from './fold.kysely-store.js';
import { KyselyAnalyticsReads } from './reads.kysely-store.js';
import type { AnalyticsStore } from './analytics.store.js';

/**
 * The analytics store over Kysely, on both databases: the fold (writes) and the pages' reads live in
 * their own files and share nothing but the tables; this class puts them behind the one interface
 * the service uses.
 */
export class KyselyAnalyticsStore implements AnalyticsStore {
  private readonly folds: KyselyAnalyticsFolds;
  private readonly reads: KyselyAnalyticsReads;

  constructor(db: Kysely<Database>, capabilities: FoldCapabilities) {
    this.folds = new KyselyAnalyticsFolds(db, capabilities);
    this.reads = new KyselyAnalyticsReads(db, capabilities);
  }

  aggregateNext: AnalyticsStore['aggregateNext'] = (...a) => this.folds.aggregateNext(...a);
  pruneEntities: AnalyticsStore['pruneEntities'] = (...a) => this.folds.pruneEntities(...a);
  backlogSize: AnalyticsStore['backlogSize'] = () => this.folds.backlogSize();
  freshAsOf: AnalyticsStore['freshAsOf'] = (...a) => this.reads.freshAsOf(...a);
  totalHours: AnalyticsStore['totalHours'] = (...a) => this.reads.totalHours(...a);
  distinctPerDay: AnalyticsStore['distinctPerDay'] = (...a) => this.reads.distinctPerDay(...a);
  totalSearches: AnalyticsStore['totalSearches'] = (...a) => this.reads.totalSearches(...a);
  queryTotals: AnalyticsStore['queryTotals'] = (...a) => this.reads.queryTotals(...a);
  queryTotalsWithPrevious: AnalyticsStore['queryTotalsWithPrevious'] = (...a) => this.reads.queryTotalsWithPrevious(...a);
  queryHours: AnalyticsStore['queryHours'] = (...a) => this.reads.queryHours(...a);
  distinctQueries: AnalyticsStore['distinctQueries'] = (...a) => this.reads.distinctQueries(...a);
  searchTrends: AnalyticsStore['searchTrends'] = (...a) => this.reads.searchTrends(...a);
  results: AnalyticsStore['results'] = (...a) => this.reads.results(...a);
  texts: AnalyticsStore['texts'] = (...a) => this.reads.texts(...a);
  knows: AnalyticsStore['knows'] = (...a) => this.reads.knows(...a);
}
