import type { ErasureReport, SessionEraser } from '../common/personal-data.js';
import { SILENT_EVENTS, type DomainEventLog } from '../common/domain-events.js';
import { erasureEvent } from './feedback-events.js';
import { createHash } from 'node:crypto';
import { toIso, type Clock } from '../common/clock.js';
import { GroupCommit } from '../common/group-commit.js';
import { newId } from '../common/ids.js';
import { snapTiny } from '../common/numbers.js';
import { DAY_MS } from '../common/time.js';
import { decodeCursor, toPage, type Page } from '../common/pagination.js';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../common/errors.js';
import { extractExtraMetadata } from './custom-metadata.js';
import { FEEDBACK_LIMITS } from './feedback-limits.js';
import type { FeedbackItemInput, FeedbackListQuery, FeedbackSubmissionBody } from './feedback.schemas.js';
import type { FeedbackRecord, FeedbackStore, NewSubmission } from './feedback.store.js';

export interface FeedbackResult {
  feedbackId: string;
  processed: true;
  timestamp: string;
  items: number;
}

export interface FeedbackItemView {
  itemId: string;
  feedbackId: string;
  sessionId: string;
  queryId: string;
  rating: number | null;
  metadata: {
    userAction: string | null;
    timestamp: string;
    resultId: string | null;
    queryHash: string | null;
    engagementType: string | null;
    customMetadata: Record<string, unknown>;
  };
  receivedAt: string;
}

const IDEMPOTENCY_SCOPE = 'feedback';
/**
 * Under steady ingestion a submission waits up to this long for others to share its commit
 * (GroupCommit's lingerMs; at rest none waits). A commit's fixed cost dominates a single-item
 * submission (issue 28; bench/ingest/last-run-cpu.txt has the figures).
 */
export const FEEDBACK_COMMIT_DELAY_MS = 4;
export const IDEMPOTENCY_RETENTION_MS = DAY_MS;

export function toItemView(r: FeedbackRecord): FeedbackItemView {
  const custom: Record<string, unknown> = r.extraMetadata ? (JSON.parse(r.extraMetadata) as Record<string, unknown>) : {};
  const put = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) custom[key] = value;
  };
  put('searchType', r.searchType);
  put('position', r.position);
  put('timeToClick', r.timeToClick);
  put('deviceType', r.deviceType);
  if (r.viewportWidth !== null && r.viewportHeight !== null) custom.viewport = { width: r.viewportWidth, height: r.viewportHeight };
  put('scrollDepth', r.scrollDepth);
  put('dwellTime', r.dwellTime);
  put('category', r.category);
  put('language', r.language);
  return {
    itemId: r.id,
    feedbackId: r.submissionId,
    sessionId: r.sessionId,
    queryId: r.queryId,
    rating: r.rating,
    metadata: {
      userAction: r.userAction,
      timestamp: toIso(r.eventTime),
      resultId: r.resultId,
      queryHash: r.queryHash,
      engagementType: r.engagementType,
      customMetadata: custom,
    },
    receivedAt: toIso(r.receivedAt),
  };
}

function parseInstant(value: string | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw ValidationError.field(path, 'is not a valid date-time', 'querystring');
  return ms;
}

export class FeedbackService {
  private readonly writes: GroupCommit<NewSubmission, 'inserted' | 'duplicate-key'>;

  constructor(
    private readonly store: FeedbackStore,
    private readonly clock: Clock,
    private readonly metrics?: { feedbackItems: { inc(labels: { outcome: string; reason: string }, n: number): void } },
    /** Erases the session from every table that keeps it; without it, from the feedback tables only. */
    private readonly eraser?: SessionEraser,
    /** A line per erased session (what was removed, not whose). */
    private readonly events: DomainEventLog = SILENT_EVENTS,
  ) {
    // Concurrent submissions share one transaction; each 201 waits for the commit holding it.
    // A group holds up to 1000 items, so no transaction is big enough to stall the others.
    this.writes = new GroupCommit(
      (batch) => this.store.insertSubmissions(batch),
      1000,
      (s) => Math.max(1, s.items.length),
      FEEDBACK_COMMIT_DELAY_MS,
    );
  }

  /** Checks the rules JSON Schema cannot express and flattens the items into records. */
  toRecords(body: FeedbackSubmissionBody, submissionId: string, receivedAt: number): FeedbackRecord[] {
    const problems: ErrorDetail[] = [];
    const records = body.feedback.map((item: FeedbackItemInput, seq) => {
      const path = `/feedback/${seq}`;
      const meta = item.metadata;
      if (item.rating === undefined && meta?.userAction === undefined) {
        problems.push({ path, message: 'needs rating or metadata.userAction', in: 'body' });
      }
      let eventTime = receivedAt;
      if (meta?.timestamp !== undefined) {
        eventTime = Date.parse(meta.timestamp);
        if (Number.isNaN(eventTime)) problems.push({ path: `${path}/metadata/timestamp`, message: 'is not a valid date-time', in: 'body' });
        else if (eventTime > receivedAt + FEEDBACK_LIMITS.maxFutureSkewMs) {
          problems.push({ path: `${path}/metadata/timestamp`, message: 'is more than 5 minutes in the future', in: 'body' });
        }
      }
      const custom = meta?.customMetadata;
      const extraMetadata = extractExtraMetadata(
        custom as Record<string, unknown> | undefined,
        `${path}/metadata/customMetadata`,
        problems,
      );
      return {
        id: newId(),
        submissionId,
        seq,
        sessionId: body.sessionId,
        queryId: item.queryId,
        rating: snapTiny(item.rating ?? null),
        userAction: meta?.userAction ?? null,
        eventTime,
        receivedAt,
        resultId: meta?.resultId ?? null,
        queryHash: meta?.queryHash ?? null,
        engagementType: meta?.engagementType ?? null,
        searchType: custom?.searchType ?? null,
        position: custom?.position ?? null,
        timeToClick: snapTiny(custom?.timeToClick ?? null),
        deviceType: custom?.deviceType ?? null,
        viewportWidth: custom?.viewport?.width ?? null,
        viewportHeight: custom?.viewport?.height ?? null,
        scrollDepth: snapTiny(custom?.scrollDepth ?? null),
        dwellTime: snapTiny(custom?.dwellTime ?? null),
        category: custom?.category ?? null,
        language: custom?.language ?? null,
        extraMetadata,
      } satisfies FeedbackRecord;
    });
    if (problems.length > 0) {
      const first = problems[0]!;
      throw new ValidationError(`${first.path}: ${first.message}`, problems.slice(0, 50));
    }
    return records;
  }

  /**
   * Stores a submission; resolves only after its transaction commits. With an idempotency
   * key, a retry of the same body gets the first answer back and nothing is stored twice.
   */
  async submit(body: FeedbackSubmissionBody, idempotencyKey?: string): Promise<FeedbackResult> {
    const requestHash = idempotencyKey ? createHash('sha256').update(JSON.stringify(body)).digest('hex') : '';
    if (idempotencyKey) {
      const earlier = await this.replay(idempotencyKey, requestHash);
      if (earlier) return earlier;
    }
    const receivedAt = this.clock.now();
    const feedbackId = newId();
    const records = this.toRecords(body, feedbackId, receivedAt);
    const result: FeedbackResult = { feedbackId, processed: true, timestamp: toIso(receivedAt), items: records.length };
    const [outcome] = await this.writes.add([
      {
        submission: { id: feedbackId, sessionId: body.sessionId, itemCount: records.length, receivedAt },
        items: records,
        ...(idempotencyKey
          ? {
              idempotency: {
                scope: IDEMPOTENCY_SCOPE,
                key: idempotencyKey,
                requestHash,
                statusCode: 201,
                responseBody: JSON.stringify(result),
                createdAt: receivedAt,
              },
            }
          : {}),
      },
    ]);
    if (outcome === 'duplicate-key') {
      const earlier = await this.replay(idempotencyKey!, requestHash);
      if (earlier) return earlier;
    }
    this.metrics?.feedbackItems.inc({ outcome: 'accepted', reason: '' }, records.length);
    return result;
  }

  private async replay(key: string, requestHash: string): Promise<FeedbackResult | undefined> {
    const earlier = await this.store.findIdempotencyRecord(IDEMPOTENCY_SCOPE, key);
    if (!earlier) return undefined;
    if (earlier.requestHash !== requestHash) {
      throw new ConflictError('Idempotency-Key was already used with a different body', [
        { path: '/idempotency-key', message: 'reused with a different body', in: 'headers' },
      ]);
    }
    return JSON.parse(earlier.responseBody) as FeedbackResult;
  }

  async get(feedbackId: string) {
    const found = await this.store.getSubmission(feedbackId);
    if (!found) throw new NotFoundError(`feedback ${feedbackId} not found`);
    return {
      feedbackId: found.submission.id,
      sessionId: found.submission.sessionId,
      timestamp: toIso(found.submission.receivedAt),
      items: found.items.map(toItemView),
    };
  }

  async list(query: FeedbackListQuery): Promise<Page<FeedbackItemView>> {
    const since = parseInstant(query.since, '/since');
    const until = parseInstant(query.until, '/until');
    const afterId = decodeCursor(query.cursor);
    const newestFirst = query.order === 'newest';
    const rows = await this.store.listItems(
      { sessionId: query.sessionId, queryId: query.queryId, since, until, afterId, newestFirst },
      query.limit + 1,
    );
    const page = toPage(rows, query.limit, (r) => r.id);
    return { items: page.items.map(toItemView), nextCursor: page.nextCursor };
  }

  /** Idempotency keys protect retries for 24 hours; older records are removed by a job. */
  async expireIdempotencyKeys(): Promise<number> {
    return this.store.deleteIdempotencyRecordsBefore(this.clock.now() - IDEMPOTENCY_RETENTION_MS);
  }

  async deleteSession(sessionId: string) {
    const removed: ErasureReport = this.eraser
      ? await this.eraser.eraseSession(sessionId)
      : await this.store.deleteSession(sessionId).then((d) => ({ feedbackItems: d.items, feedbackSubmissions: d.submissions }));
    const e = erasureEvent(removed);
    this.events.record(e.event, e.fields, e.message);
    return { sessionId, deletedItems: removed.feedbackItems ?? 0, deletedSubmissions: removed.feedbackSubmissions ?? 0, removed };
  }
}
