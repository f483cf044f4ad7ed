/**
 * A domain event worth its own line in the operator's log: a model trained or imported, an experiment
 * concluded, an alias moved, an import finished. Services take it as an optional dependency (the
 * container fills it from the app's logger; tests leave it silent), so the floor stays free of pino.
 */
export interface DomainEventLog {
  /**
   * `event` is a stable dotted name ('alias.moved', 'experiment.concluded'); `fields` are the
   * structured facts (ids, counts, from/to); `message` is the sentence a person reads in the terminal.
   */
  record(event: string, fields: Record<string, unknown>, message: string): void;
}

/** For services built without a logger (unit tests, the CLI's one-shot commands). */
export const SILENT_EVENTS: DomainEventLog = { record: () => undefined };
