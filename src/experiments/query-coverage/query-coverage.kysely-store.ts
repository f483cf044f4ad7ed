import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { ExperimentConfiguration } from '../model/experiment.store.js';
import type { ExperimentState } from '../model/lifecycle.js';
import type { CoverageKey, PhaseQueryCoverage, QueryCoverageStore } from './query-coverage.store.js';

export class KyselyQueryCoverageStore implements QueryCoverageStore {
  constructor(private readonly db: Kysely<Database>) {}

  async phasesCovering(queryHash: string, after: CoverageKey | undefined, limit: number): Promise<PhaseQueryCoverage[]> {
    // The page of phases: an index range on query_hash, grouped (a query has a row per variant of each phase covering it).
    const lastSeen = sql<number>`max(last_seen)`;
    let pageQuery = this.db
      .selectFrom('experiment_query_sums')
      .select(['experiment_id', 'phase', lastSeen.as('last_seen')])
      .where('query_hash', '=', queryHash)
      .groupBy(['experiment_id', 'phase']);
    if (after) {
      pageQuery = pageQuery.having((eb) =>
        eb.or([
          eb(lastSeen, '<', after.lastSeen),
          eb.and([
            eb(lastSeen, '=', after.lastSeen),
            eb.or([
              eb('experiment_id', '<', after.experimentId),
              eb.and([eb('experiment_id', '=', after.experimentId), eb('phase', '<', after.phase)]),
            ]),
          ]),
        ]),
      );
    }
    const page = await pageQuery
      .orderBy('last_seen', 'desc')
      .orderBy('experiment_id', 'desc')
      .orderBy('phase', 'desc')
      .limit(limit)
      .execute();
    if (page.length === 0) return [];

    const rows = await this.db
      .selectFrom('experiment_query_sums as s')
      .innerJoin('experiments as e', 'e.id', 's.experiment_id')
      .select([
        's.experiment_id',
        's.phase',
        's.variant_id',
        's.searches',
        's.clicked_searches',
        's.last_seen',
        'e.name',
        'e.status',
        'e.configuration',
      ])
      .where('s.query_hash', '=', queryHash)
      .where('s.experiment_id', 'in', [...new Set(page.map((p) => p.experiment_id))])
      .orderBy('s.variant_id')
      .execute();
    const onPage = new Map(page.map((p) => [`${p.experiment_id}\u0000${p.phase}`, Number(p.last_seen)]));
    const phases = new Map<string, PhaseQueryCoverage>();
    for (const r of rows) {
      const key = `${r.experiment_id}\u0000${r.phase}`;
      const lastSeen = onPage.get(key);
      if (lastSeen === undefined) continue; // another phase of an experiment on the page
      let phase = phases.get(key);
      if (!phase) {
        const configuration = JSON.parse(r.configuration) as Pick<ExperimentConfiguration, 'type' | 'variants'>;
        phase = {
          experimentId: r.experiment_id,
          name: r.name,
          status: r.status as ExperimentState,
          type: configuration.type ?? 'ab',
          variantOrder: configuration.variants.map((v) => v.id),
          phase: r.phase,
          lastSeen,
          variants: [],
        };
        phases.set(key, phase);
      }
      phase.variants.push({
        variantId: r.variant_id,
        searches: Number(r.searches),
        clickedSearches: Number(r.clicked_searches),
        lastSeen: Number(r.last_seen),
      });
    }
    return [...onPage.keys()].map((key) => phases.get(key)!);
  }
}
