import { toIso, type Clock } from '../../common/clock.js';
import type { DomainEventLog } from '../../common/domain-events.js';
import { newId } from '../../common/ids.js';
import { describeAliasMove } from '../../vocabulary/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import { decodeCursor, toPage, type Page } from '../../common/pagination.js';
import type { ModelLookup, ModelVersionReads } from '../ports/model-registry.js';
import type { AliasEventView, AliasPutBody, AliasView } from './alias.schemas.js';
import type { AliasChange, AliasEvent, AliasRecord, AliasStore, AliasTarget } from './alias.store.js';

/** Why a model cannot back a variant or an alias, naming the field at fault; null when it can. */
export type RankableCheck = { ok: true; activeVersion: number | null } | { ok: false; field: 'modelId' | 'version'; message: string };

/** A move as experiments ask for it at conclusion. */
export interface AliasMoveRequest {
  alias: string;
  modelId: string;
  version: number;
  actor: string;
  reason: string;
  experimentId: string;
  at: number;
}

const eventView = (e: AliasEvent): AliasEventView => ({
  eventId: e.id,
  at: toIso(e.at),
  actor: e.actor,
  from: e.from,
  to: e.to,
  reason: e.reason,
  experimentId: e.experimentId,
});

/** The alias store and what an alias may point at (the registry's reads, as ports). */
export interface AliasServiceDependencies {
  store: AliasStore;
  models: ModelLookup;
  versions: Pick<ModelVersionReads, 'getState' | 'listVersions'>;
  clock: Clock;
  /** Lines for the operator's log: every alias move (default: silent). */
  events?: DomainEventLog;
}

/**
 * Model aliases: named pointers at a ranker's version (or at whatever version is active) that
 * POST /api/nous/rank serves and promotions move; every move is kept in an append-only history.
 */
export class AliasService {
  constructor(private readonly deps: AliasServiceDependencies) {}

  /** The model exists, is a ranker, and the version (when given) exists. */
  async checkRankable(modelId: string, version?: number): Promise<RankableCheck> {
    const model = await this.deps.models.get(modelId);
    if (!model) return { ok: false, field: 'modelId', message: `model ${modelId} not found` };
    if (model.type !== 'ranker') return { ok: false, field: 'modelId', message: `model ${modelId} is a ${model.type}, not a ranker` };
    if (version !== undefined) {
      const [found] = await this.deps.versions.listVersions(modelId, 1, version + 1);
      if (found?.version !== version) return { ok: false, field: 'version', message: `model ${modelId} has no version ${version}` };
    }
    return { ok: true, activeVersion: (await this.deps.versions.getState(modelId))?.activeVersion ?? null };
  }

  private async view(a: AliasRecord): Promise<AliasView> {
    return {
      alias: a.alias,
      modelId: a.modelId,
      version: a.version,
      servingVersion: (await this.resolveRecord(a))?.version ?? null,
      updatedAt: toIso(a.updatedAt),
      updatedBy: a.updatedBy,
      reason: a.reason,
      experimentId: a.experimentId,
    };
  }

  private async resolveRecord(a: AliasRecord): Promise<{ modelId: string; version: number } | null> {
    if (a.modelId === null) return null;
    const version = a.version ?? (await this.deps.versions.getState(a.modelId))?.activeVersion ?? null;
    return version === null ? null : { modelId: a.modelId, version };
  }

  /** Where the alias sends a query now, or null (unset, cleared, or following a model with no version yet). */
  async resolve(alias: string): Promise<{ alias: string; modelId: string; version: number } | null> {
    const a = await this.deps.store.get(alias);
    const target = a ? await this.resolveRecord(a) : null;
    return target ? { alias, ...target } : null;
  }

  /**
   * Points the alias at a ranker's version (or its active version), or clears it (`modelId: null`):
   * a cleared alias serves the engine's original order. Either way the move joins the history.
   */
  async put(alias: string, body: AliasPutBody, actor: string): Promise<AliasView> {
    if (body.modelId === null) return this.clear(alias, body, actor);
    const check = await this.checkRankable(body.modelId, body.version);
    if (!check.ok) throw ValidationError.field(`/${check.field}`, check.message);
    return this.write({ alias, modelId: body.modelId, version: body.version ?? null, actor, reason: body.reason ?? null });
  }

  /** Clears an existing alias: POST /api/nous/rank then serves the engine's original order. */
  async clear(alias: string, body: { version?: number; reason?: string }, actor: string): Promise<AliasView> {
    if (body.version !== undefined) throw ValidationError.field('/version', 'must be left out when modelId is null (clearing the alias)');
    if (!(await this.deps.store.get(alias))) throw new NotFoundError(`alias ${alias} not found`);
    return this.write({ alias, modelId: null, version: null, actor, reason: body.reason ?? null });
  }

  private async write(m: { alias: string; modelId: string | null; version: number | null; actor: string; reason: string | null }) {
    const event = await this.deps.store.move(this.change({ ...m, at: this.deps.clock.now() }));
    this.logMove(event);
    return this.get(m.alias);
  }

  /** The operator's log line for a move (the experiments module calls it after a conclusion's commit). */
  logMove(e: Pick<AliasEvent, 'alias' | 'from' | 'to' | 'actor' | 'reason' | 'experimentId'>): void {
    const message = `${describeAliasMove(e.alias, e.from, e.to)} by ${e.actor}${e.reason ? `: ${e.reason}` : ''}`;
    this.deps.events?.record(
      'alias.moved',
      { alias: e.alias, from: e.from, to: e.to, actor: e.actor, experimentId: e.experimentId },
      message,
    );
  }

  /** The record and event of a move, as the store (or a caller's transaction) writes them. */
  change(m: {
    alias: string;
    modelId: string | null;
    version: number | null;
    actor: string;
    reason: string | null;
    at: number;
    experimentId?: string;
  }): AliasChange {
    const experimentId = m.experimentId ?? null;
    return {
      record: {
        alias: m.alias,
        modelId: m.modelId,
        version: m.version,
        updatedAt: m.at,
        updatedBy: m.actor,
        reason: m.reason,
        experimentId,
      },
      event: {
        id: newId(),
        alias: m.alias,
        at: m.at,
        actor: m.actor,
        to: m.modelId === null ? null : { modelId: m.modelId, version: m.version },
        reason: m.reason,
        experimentId,
      },
    };
  }

  async get(alias: string): Promise<AliasView> {
    const a = await this.deps.store.get(alias);
    if (!a) throw new NotFoundError(`alias ${alias} not found`);
    return this.view(a);
  }

  /** Where the alias points now (unresolved), for a conclusion to record what it replaced; null: the original order. */
  async target(alias: string): Promise<AliasTarget | null> {
    const a = await this.deps.store.get(alias);
    return a?.modelId ? { modelId: a.modelId, version: a.version } : null;
  }

  async list(query: { limit: number; cursor?: string }): Promise<Page<AliasView>> {
    const rows = await this.deps.store.list(decodeCursor(query.cursor), query.limit + 1);
    const page = toPage(rows, query.limit, (a) => a.alias);
    return { items: await Promise.all(page.items.map((a) => this.view(a))), nextCursor: page.nextCursor };
  }

  async events(alias: string, query: { limit: number; cursor?: string }): Promise<Page<AliasEventView>> {
    if (!(await this.deps.store.get(alias))) throw new NotFoundError(`alias ${alias} not found`);
    const rows = await this.deps.store.listEvents(alias, decodeCursor(query.cursor), query.limit + 1);
    const page = toPage(rows, query.limit, (e) => e.id);
    return { items: page.items.map(eventView), nextCursor: page.nextCursor };
  }

  /** Refuses a promotion to a model that can no longer be served (checked before the conclusion's transaction). */
  async checkMove(m: AliasMoveRequest): Promise<void> {
    const check = await this.checkRankable(m.modelId, m.version);
    if (!check.ok) throw new ConflictError(`cannot move alias ${m.alias}: ${check.message}`);
  }
}
