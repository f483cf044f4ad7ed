import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '../../common/clock.js';
import { SILENT_EVENTS, type DomainEventLog } from '../../common/domain-events.js';
import { newId } from '../../common/ids.js';
import { ConflictError, ValidationError, type ErrorDetail } from '../../common/errors.js';
import { checkDates, normaliseConfiguration, phaseSeed, type ConfigurationInput } from '../model/experiment-rules.js';
import { checkVariantModels, NO_MODELS, PRODUCTION_ALIAS, type ModelCatalog } from '../ports/model-catalog.js';
import { describeAliasMove } from '../../vocabulary/index.js';
import { conclusionSummary } from './conclusion-summary.js';
import { checkOneRankingExperiment, pinModels, pinnedVersions } from './model-pinning.js';
import type { ConcludeBody, PatchBody } from './experiment-change.schemas.js';
import type { ExperimentSnapshot, ExperimentView } from '../model/schemas/experiment-view.schemas.js';
import { throwIfProblems, toExperimentSnapshot, toExperimentView } from '../model/experiment-view.js';
import type {
  Conclusion,
  ExperimentChange,
  ExperimentConfiguration,
  ExperimentRecord,
  ExperimentStore,
} from '../model/experiment.store.js';
import { transition, type LifecycleAction } from '../model/lifecycle.js';

export type ManualAction = Exclude<LifecycleAction, 'activate' | 'expire' | 'conclude'>;

const ENROLLED = new Set(['running', 'paused']);
const FROZEN = new Set(['stopped', 'concluded', 'archived']);

/** Fields whose change re-randomizes units, so they need a new phase once units are enrolled. */
function randomizationChanges(before: ExperimentConfiguration, after: ExperimentConfiguration): string[] {
  const changed: string[] = [];
  const shape = (c: ExperimentConfiguration) =>
    c.variants.map((v) => ({ id: v.id, weight: v.weight, config: v.config, model: v.model?.modelId, version: v.model?.version }));
  if (!isDeepStrictEqual(shape(before), shape(after))) changed.push('variants');
  if (after.trafficAllocation < before.trafficAllocation) changed.push('trafficAllocation (lowered)');
  if (before.seed !== after.seed) changed.push('seed');
  if (!isDeepStrictEqual(before.layer, after.layer)) changed.push('layer');
  if (!isDeepStrictEqual(before.conditions, after.conditions)) changed.push('conditions');
  if (!isDeepStrictEqual(before.interleaving, after.interleaving) || (before.type ?? 'ab') !== (after.type ?? 'ab'))
    changed.push('interleaving');
  return changed;
}

/** The sample-ratio check (team balance for interleaving) of an experiment. */
export type TrustCheck = (e: ExperimentRecord) => Promise<{ passed: boolean; pValue: number | null; check?: string }>;

export interface ExperimentLifecycleDependencies {
  store: ExperimentStore;
  clock: Clock;
  load: (id: string) => Promise<ExperimentRecord>;
  /** Called after every applied change (the assignment cache listens). */
  onChange?: () => void;
  /** A failed check blocks concluding with "ship" unless forced (default: passes). */
  srm?: TrustCheck;
  /** The model registry, through the port the container fills (default: no models). */
  catalog?: Pick<ModelCatalog, 'resolveRankable' | 'aliasTarget'>;
  /** Lines for the operator's log: started, paused, concluded (default: silent). */
  events?: DomainEventLog;
}

/** Every change to an experiment after creation: transitions, conclusion, edits, phases. */
export class ExperimentLifecycleService {
  private readonly deps: Required<ExperimentLifecycleDependencies>;

  constructor({
    onChange = () => undefined,
    srm = async () => ({ passed: true, pValue: null }),
    catalog = NO_MODELS,
    events = SILENT_EVENTS,
    ...rest
  }: ExperimentLifecycleDependencies) {
    this.deps = { ...rest, onChange, srm, catalog, events };
  }

  /** updated_at strictly increases, so it is both the optimistic-lock token and the cache revision. */
  private stamp(e: ExperimentRecord): number {
    return Math.max(this.deps.clock.now(), e.updatedAt + 1);
  }

  private async write(change: ExperimentChange, expected: number): Promise<ExperimentView> {
    const outcome = await this.deps.store.update(change, expected);
    if (outcome === 'stale') throw new ConflictError('the experiment changed while this request ran; read it again and retry');
    if (outcome === 'duplicate') {
      throw new ConflictError(`an experiment named "${change.next.name}" already exists`, [
        { path: '/name', message: 'is already taken', in: 'body' },
      ]);
    }
    this.deps.onChange();
    return toExperimentView(change.next, this.deps.clock.now());
  }

  private change(
    e: ExperimentRecord,
    action: LifecycleAction | 'update' | 'new_phase',
    next: ExperimentRecord,
    actor: string,
    extra: Partial<ExperimentChange> = {},
  ): ExperimentChange {
    return {
      next,
      event: {
        id: newId(),
        experimentId: e.id,
        at: next.updatedAt,
        actor,
        action,
        before: { status: e.status },
        after: { status: next.status },
      },
      ...extra,
    };
  }

  /** Moves the state machine; the phase opens when it first runs and closes when it stops. */
  private async transitionRecord(e: ExperimentRecord, action: LifecycleAction, actor: string): Promise<ExperimentChange> {
    const now = this.deps.clock.now();
    const result = transition(e.status, action, {
      now: new Date(now),
      ...(e.startDate !== null ? { startDate: new Date(e.startDate) } : {}),
      ...(e.endDate !== null ? { endDate: new Date(e.endDate) } : {}),
    });
    if (!result.ok) {
      const allowed = result.allowed.length ? result.allowed.filter((a) => a !== 'activate' && a !== 'expire').join(', ') : 'none';
      const message = `cannot ${action} an experiment that is ${e.status} (${result.reason.replaceAll('_', ' ')}); allowed: ${allowed || 'none'}`;
      throw new ConflictError(message, [{ path: '/status', message }]);
    }
    const next: ExperimentRecord = { ...e, status: result.next, updatedAt: this.stamp(e) };
    const extra: Partial<ExperimentChange> = {};
    if (result.next === 'running') await checkOneRankingExperiment(this.deps.store, e);
    if (result.next === 'running' && e.status !== 'paused') {
      next.configuration = await pinModels(this.deps.catalog, e.configuration);
      extra.startPhase = {
        experimentId: e.id,
        phase: e.phase,
        seed: phaseSeed(e.id, e.configuration, e.phase),
        configuration: next.configuration,
        startedAt: next.updatedAt,
        endedAt: null,
      };
    }
    if (FROZEN.has(result.next) && !FROZEN.has(e.status)) extra.endPhaseAt = next.updatedAt;
    const change = this.change(e, action, next, actor, extra);
    const pinned = pinnedVersions(next.configuration);
    if (extra.startPhase && Object.keys(pinned).length > 0) change.event.after = { status: next.status, pinned };
    return change;
  }

  /** `details` are recorded in the audit event's `after` (e.g. the guardrail breaches behind an automatic pause). */
  async act(experimentId: string, action: ManualAction, actor = 'anonymous', details?: Record<string, unknown>): Promise<ExperimentView> {
    const e = await this.deps.load(experimentId);
    const change = await this.transitionRecord(e, action, actor);
    if (details) change.event.after = { ...(change.event.after as object), ...details };
    const view = await this.write(change, e.updatedAt);
    this.logTransition(e, change.next.status, action, actor);
    return view;
  }

  async conclude(experimentId: string, body: ConcludeBody, actor = 'anonymous'): Promise<ExperimentView> {
    const e = await this.deps.load(experimentId);
    const winner = body.winnerVariantId ?? null;
    if (winner !== null && !e.configuration.variants.some((v) => v.id === winner)) {
      throw ValidationError.field('/winnerVariantId', `"${winner}" is not a variant of this experiment`);
    }
    if (body.decision === 'ship' && winner === null)
      throw ValidationError.field('/winnerVariantId', 'is required when the decision is ship');
    if (body.promote && body.decision !== 'ship') {
      throw ValidationError.field(
        '/promote',
        `moves an alias to the winner, so it applies only to the decision "ship" (not "${body.decision}")`,
      );
    }
    // An alias named at conclusion overrides the configuration's target; both are recorded in the audit log.
    const promote = body.decision === 'ship' && winner !== null ? (body.promote ?? e.configuration.promote) : undefined;
    const winnerModel = e.configuration.variants.find((v) => v.id === winner)?.model;
    const promotePath = body.promote ? '/promote' : '/winnerVariantId';
    if (promote && !winnerModel) {
      const message = `"${winner}" has no model, so there is nothing to move alias ${promote.alias} to; ship a model-backed variant or ${body.promote ? 'leave out promote' : 'remove configuration.promote'}`;
      throw new ConflictError(message, [{ path: promotePath, message, in: 'body' }]);
    }
    const promotedVersion = winnerModel?.pinnedVersion ?? winnerModel?.version;
    if (promote && promotedVersion === undefined) {
      const message = `"${winner}" was never pinned to a version (the experiment never ran)`;
      throw new ConflictError(message, [{ path: '/winnerVariantId', message, in: 'body' }]);
    }
    if (body.decision === 'ship' && !body.force) {
      const srm = await this.deps.srm(e);
      if (!srm.passed) {
        const check = srm.check ?? 'sample-ratio';
        throw new ConflictError(
          `the ${check} check failed (p = ${srm.pValue?.toExponential(2)}): the results are untrustworthy; send "force": true to ship anyway`,
          [{ path: '/force', message: `required to ship with a failed ${check} check`, in: 'body' }],
        );
      }
    }
    const change = await this.transitionRecord(e, 'conclude', actor);
    const conclusion: Conclusion = {
      decision: body.decision,
      winnerVariantId: winner,
      notes: body.notes ?? null,
      concludedAt: change.next.updatedAt,
      forced: body.force === true,
    };
    if (promote && winnerModel && promotedVersion !== undefined) {
      const from = await this.deps.catalog.aliasTarget(promote.alias);
      conclusion.promotion = { alias: promote.alias, modelId: winnerModel.modelId, version: promotedVersion, from };
      change.aliasMove = {
        alias: promote.alias,
        modelId: winnerModel.modelId,
        version: promotedVersion,
        actor,
        reason: `experiment "${e.name}" concluded: ship ${winner}`,
        experimentId: e.id,
        at: change.next.updatedAt,
      };
    }
    conclusion.summary = conclusionSummary({
      decision: body.decision,
      winnerVariantId: winner,
      winnerModel: winnerModel && promotedVersion !== undefined ? { modelId: winnerModel.modelId, version: promotedVersion } : null,
      promotion: conclusion.promotion ?? null,
      production: conclusion.promotion?.alias === PRODUCTION_ALIAS ? null : await this.deps.catalog.aliasTarget(PRODUCTION_ALIAS),
      productionAlias: PRODUCTION_ALIAS,
    });
    change.next.conclusion = conclusion;
    change.event.after = { status: 'concluded', conclusion, ...(body.promote ? { promoteNamedAtConclusion: body.promote } : {}) };
    const view = await this.write(change, e.updatedAt);
    this.deps.events.record(
      'experiment.concluded',
      { experimentId: e.id, decision: body.decision, winnerVariantId: winner, actor, promotion: conclusion.promotion ?? null },
      `experiment "${e.name}" concluded by ${actor}: ${body.decision}${winner ? ` ${winner}` : ''}; ${conclusion.summary}`,
    );
    const move = change.aliasMove;
    if (move) {
      // The move committed with the conclusion, inside experiments' transaction, so its line is written here.
      const from = conclusion.promotion?.from ?? null;
      const to = { modelId: move.modelId, version: move.version };
      this.deps.events.record(
        'alias.moved',
        { alias: move.alias, from, to, actor, experimentId: e.id },
        `${describeAliasMove(move.alias, from, to)} by ${actor}: ${move.reason}`,
      );
    }
    return view;
  }

  private logTransition(e: ExperimentRecord, to: string, action: LifecycleAction, actor: string): void {
    this.deps.events.record(
      `experiment.${to === 'running' ? (e.status === 'paused' ? 'resumed' : 'started') : to}`,
      { experimentId: e.id, action, from: e.status, to, actor },
      `experiment "${e.name}" ${e.status} → ${to} (${action} by ${actor})`,
    );
  }

  /** Applies the clock's transitions (scheduled → running at startDate; → stopped at endDate). */
  async applyDue(): Promise<number> {
    let applied = 0;
    for (const e of await this.deps.store.listDue(this.deps.clock.now())) {
      const action: LifecycleAction = e.endDate !== null && e.endDate <= this.deps.clock.now() ? 'expire' : 'activate';
      try {
        const outcome = await this.deps.store.update(await this.transitionRecord(e, action, 'scheduler'), e.updatedAt);
        // 'stale': another instance applied it first.
        if (outcome === 'updated') {
          applied += 1;
          this.logTransition(e, action === 'expire' ? 'stopped' : 'running', action, 'scheduler');
        }
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    if (applied > 0) this.deps.onChange();
    return applied;
  }

  async patch(experimentId: string, body: PatchBody, actor = 'anonymous'): Promise<ExperimentView> {
    const e = await this.deps.load(experimentId);
    const problems: ErrorDetail[] = [];
    const patch = body.configuration ?? {};
    const current = e.configuration;
    const input: ConfigurationInput = {
      variants: patch.variants ?? current.variants,
      trafficAllocation: patch.trafficAllocation ?? current.trafficAllocation,
      targetMetrics: patch.targetMetrics ?? current.targetMetrics,
      seed: patch.seed ?? current.seed,
      layer: patch.layer === undefined ? current.layer : patch.layer,
      conditions: patch.conditions === undefined ? current.conditions : patch.conditions,
      controlVariantId: patch.controlVariantId === undefined ? current.controlVariantId : patch.controlVariantId,
      analysis: { ...current.analysis, ...patch.analysis },
      type: current.type,
      interleaving: current.interleaving,
      promote: patch.promote === undefined ? current.promote : patch.promote,
    };
    let configuration = normaliseConfiguration(input, problems);
    if (patch.variants) await checkVariantModels(this.deps.catalog, configuration.variants, problems);
    const date = (v: string | null | undefined, old: number | null) => (v === undefined ? old : v === null ? null : Date.parse(v));
    const startDate = date(body.startDate, e.startDate);
    const endDate = date(body.endDate, e.endDate);
    checkDates(startDate, endDate, problems);
    throwIfProblems(problems);

    const randomization = randomizationChanges(current, configuration);
    if (body.newPhase && !ENROLLED.has(e.status))
      throw ValidationError.field('/newPhase', `only applies to a running or paused experiment; this one is ${e.status}`);
    if (ENROLLED.has(e.status) && randomization.length > 0 && !body.newPhase) {
      const message = `changing ${randomization.join(', ')} of a ${e.status} experiment would move enrolled units; send "newPhase": true to re-randomize in a new phase`;
      throw new ConflictError(
        message,
        randomization.map((f) => ({ path: `/configuration/${f.split(' ')[0]}`, message: 'needs a new phase', in: 'body' as const })),
      );
    }
    if (FROZEN.has(e.status) && (randomization.length > 0 || configuration.trafficAllocation !== current.trafficAllocation)) {
      throw new ConflictError(
        `a ${e.status} experiment no longer assigns units; only name, description, dates, targetMetrics, controlVariantId and analysis can change`,
      );
    }
    if (body.newPhase) configuration = await pinModels(this.deps.catalog, configuration);
    else if (ENROLLED.has(e.status) || FROZEN.has(e.status)) {
      // Without a new phase the arms keep serving the versions pinned when the phase started.
      const pinnedModel = new Map(current.variants.map((v) => [v.id, v.model]));
      configuration = {
        ...configuration,
        variants: configuration.variants.map((v) => {
          const model = pinnedModel.get(v.id);
          return model ? { ...v, model } : v;
        }),
      };
    }
    const next: ExperimentRecord = {
      ...e,
      name: body.name ?? e.name,
      description: body.description === undefined ? e.description : body.description,
      startDate,
      endDate,
      configuration,
      updatedAt: this.stamp(e),
    };
    const extra: Partial<ExperimentChange> = {};
    if (body.newPhase) {
      next.phase = e.phase + 1;
      extra.endPhaseAt = next.updatedAt;
      extra.startPhase = {
        experimentId: e.id,
        phase: next.phase,
        seed: phaseSeed(e.id, configuration, next.phase),
        configuration,
        startedAt: next.updatedAt,
        endedAt: null,
      };
    }
    const before = toExperimentSnapshot(e);
    const after = toExperimentSnapshot(next);
    const changedKeys = (Object.keys(after) as (keyof ExperimentSnapshot)[]).filter(
      (k) => k !== 'updatedAt' && !isDeepStrictEqual(before[k], after[k]),
    );
    const change = this.change(e, body.newPhase ? 'new_phase' : 'update', next, actor, extra);
    change.event.before = Object.fromEntries(changedKeys.map((k) => [k, before[k]]));
    change.event.after = Object.fromEntries(changedKeys.map((k) => [k, after[k]]));
    return this.write(change, e.updatedAt);
  }
}
