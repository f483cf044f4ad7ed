import { expect, it } from 'vitest';
import {
  FEEDBACK_ITEM_COLUMNS,
  feedbackRowValues,
  fromFeedbackRow,
  pickFeedbackFields,
  toFeedbackRow,
  type FeedbackItemFields,
} from '../../src/storage/tables/feedback-row.js';

const item: FeedbackItemFields = {
  id: 'i1',
  submissionId: 's1',
  seq: 2,
  sessionId: 'u1',
  queryId: 'q1',
  rating: 0.5,
  userAction: 'click',
  eventTime: 1_000,
  receivedAt: 2_000,
  resultId: 'r1',
  queryHash: 'h1',
  engagementType: 'view',
  searchType: 'web',
  position: 3,
  timeToClick: 1.5,
  deviceType: 'mobile',
  viewportWidth: 320,
  viewportHeight: 640,
  scrollDepth: 0.7,
  dwellTime: 12,
  category: 'c',
  language: 'en',
  extraMetadata: '{"a":1}',
};

it('maps every field to its column and back, values in column order', () => {
  const row = toFeedbackRow(item);
  expect(Object.keys(row)).toEqual(FEEDBACK_ITEM_COLUMNS.map(([column]) => column));
  expect(fromFeedbackRow(row as Parameters<typeof fromFeedbackRow>[0])).toEqual(item);
  expect(feedbackRowValues(item)).toEqual(Object.values(row));
  expect(new Set(FEEDBACK_ITEM_COLUMNS.map(([, field]) => field)).size).toBe(Object.keys(item).length);
});

it('picks the fields of the selected columns only', () => {
  const row = { session_id: 'u1', event_time: 1_000 };
  expect(pickFeedbackFields(row, ['session_id', 'event_time'])).toEqual({ sessionId: 'u1', eventTime: 1_000 });
});
