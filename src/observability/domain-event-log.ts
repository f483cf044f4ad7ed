import type { FastifyBaseLogger } from 'fastify';
import type { DomainEventLog } from '../common/domain-events.js';

/**
 * Domain events as log lines of their own, at info: the sentence is the message a person reads in the
 * terminal; `event` and the fields are what a log collector filters on (`event: "model.trained"`).
 */
export function domainEventLog(log: Pick<FastifyBaseLogger, 'info' | 'child'>): DomainEventLog {
  const events = log.child({ component: 'events' });
  return {
    record(event, fields, message) {
      events.info({ ...fields, event }, message);
    },
  };
}
