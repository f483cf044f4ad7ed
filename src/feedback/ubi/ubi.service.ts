import { ValidationError, type ErrorDetail } from '../../common/errors.js';
import { FEEDBACK_LIMITS } from '../feedback-limits.js';
import type { FeedbackService } from '../feedback.service.js';
import { eventToItem, queryToItems, toSubmissions, type MappedItem } from './ubi-mapping.js';
import { checkUbiEvent, checkUbiQuery } from './ubi-rules.js';

export type UbiKind = 'queries' | 'events';

export interface UbiIngestResult {
  documents: number;
  items: number;
  feedbackIds: string[];
}

/**
 * UBI documents in: every document is checked against the UBI 1.3.0 rules and mapped onto
 * feedback before anything is stored (one bad document refuses the request, naming its field);
 * then each session's items are submitted as ordinary feedback, each submission with its own
 * idempotency key derived from the request's, so a retried request stores nothing twice.
 */
export class UbiService {
  constructor(private readonly feedback: Pick<FeedbackService, 'submit'>) {}

  async ingest(kind: UbiKind, body: unknown, idempotencyKey?: string): Promise<UbiIngestResult> {
    const documents = Array.isArray(body) ? body : [body];
    const prefix = (i: number) => (Array.isArray(body) ? `/${i}` : '');
    if (documents.length === 0) throw ValidationError.field('', 'send at least one UBI document');
    const problems: ErrorDetail[] = [];
    const mapped: MappedItem[] = [];
    documents.forEach((doc, i) => {
      if (kind === 'events') {
        if (!checkUbiEvent(doc, prefix(i), problems)) return;
        const item = eventToItem(doc, prefix(i), problems);
        if (item) mapped.push(item);
      } else {
        if (!checkUbiQuery(doc, prefix(i), problems)) return;
        mapped.push(...queryToItems(doc, prefix(i), problems));
      }
    });
    if (problems.length > 0) {
      throw new ValidationError(`${problems[0]!.path || '/'}: ${problems[0]!.message}`, problems.slice(0, 100));
    }
    const submissions = toSubmissions(mapped, FEEDBACK_LIMITS.maxItems);
    const feedbackIds: string[] = [];
    for (const [i, submission] of submissions.entries()) {
      const result = await this.feedback.submit(submission, idempotencyKey ? `${idempotencyKey}:ubi-${kind}:${i}` : undefined);
      feedbackIds.push(result.feedbackId);
    }
    return { documents: documents.length, items: mapped.length, feedbackIds };
  }
}
