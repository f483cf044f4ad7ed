import { ConflictError } from '../../common/errors.js';
import type { ExperimentRecord, ExperimentStore } from '../model/experiment.store.js';

/** What the monitor reads of a guardrail's sequential test (results' GuardrailView; the module entry wires the read). */
export interface GuardrailReading {
  metric: string;
  scale: string;
  margin: number;
  autoPause: boolean;
  comparisons: readonly {
    variantId: string;
    status: string | null;
    estimate: number | null;
    bounds: [number, number] | null;
    breachPValue: number | null;
  }[];
}

export interface GuardrailBreach {
  metric: string;
  variantId: string;
  scale: string;
  margin: number;
  estimate: number | null;
  bounds: [number, number] | null;
  breachPValue: number | null;
}

/**
 * The scheduled guardrail check: for each running experiment with an `autoPause` guardrail, the
 * guardrails' always-valid (sequential) tests; a breach pauses the experiment through the lifecycle
 * service, so the audit log records it (actor "guardrail", the breaches in the event's `after`).
 * Safe on several instances: the pause is compare-and-set, and a second one finds it paused (409, skipped).
 */
export class GuardrailMonitor {
  constructor(
    private readonly experiments: Pick<ExperimentStore, 'listServing'>,
    /** `stop` is the scheduler's signal: the attribution catch-up the read starts ends at its next batch once it aborts. */
    private readonly guardrails: (e: ExperimentRecord, stop?: AbortSignal) => Promise<GuardrailReading[]>,
    private readonly pause: (experimentId: string, breaches: GuardrailBreach[]) => Promise<unknown>,
  ) {}

  /** Returns the number of experiments paused by this run; `stop` is the scheduler's signal. */
  async run(stop?: AbortSignal): Promise<number> {
    const watched = (await this.experiments.listServing()).filter(
      (e) => e.status === 'running' && e.configuration.analysis.guardrails.some((g) => g.autoPause === true),
    );
    let paused = 0;
    for (const e of watched) {
      const breaches = (await this.guardrails(e, stop))
        .filter((g) => g.autoPause)
        .flatMap((g) =>
          g.comparisons
            .filter((c) => c.status === 'breached')
            .map((c) => ({
              metric: g.metric,
              variantId: c.variantId,
              scale: g.scale,
              margin: g.margin,
              estimate: c.estimate,
              bounds: c.bounds,
              breachPValue: c.breachPValue,
            })),
        );
      if (breaches.length === 0) continue;
      try {
        await this.pause(e.id, breaches);
        paused += 1;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    return paused;
  }
}
