import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useEraseSession, useFeedback } from '../api/queries';
import type { FeedbackQuery } from '../api/types';
import { ConfirmDialog } from '../components/dialog';
import { Pager, useCursorPager } from '../components/pager';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { useTitle } from '../components/title';
import { dateTime, integer } from '../format';
import { FeedbackCurl, KeyNote } from './getting-started';

const PAGE_SIZE = 50;
// datetime-local holds no zone: the page works in UTC, as the API does.
const toIso = (local: string) => (local ? `${local}:00Z` : undefined);
const toLocal = (iso: string | null) => (iso ? iso.slice(0, 16) : '');

export function FeedbackPage() {
  useTitle('Feedback');
  const [params, setParams] = useSearchParams();
  const filter = {
    sessionId: params.get('sessionId') ?? '',
    queryId: params.get('queryId') ?? '',
    since: params.get('since') ?? '',
    until: params.get('until') ?? '',
  };
  const oldestFirst = params.get('order') === 'oldest';
  const pager = useCursorPager(params.toString());
  const query: FeedbackQuery = {
    limit: PAGE_SIZE,
    order: oldestFirst ? 'oldest' : 'newest',
    ...(filter.sessionId ? { sessionId: filter.sessionId } : {}),
    ...(filter.queryId ? { queryId: filter.queryId } : {}),
    ...(filter.since ? { since: filter.since } : {}),
    ...(filter.until ? { until: filter.until } : {}),
    ...(pager.cursor ? { cursor: pager.cursor } : {}),
  };
  const page = useFeedback(query);
  const filtered = Object.values(filter).some(Boolean);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Record<string, string> = {};
    for (const name of ['sessionId', 'queryId']) {
      const value = String(form.get(name) ?? '').trim();
      if (value) next[name] = value;
    }
    for (const name of ['since', 'until']) {
      const value = toIso(String(form.get(name) ?? ''));
      if (value) next[name] = value;
    }
    if (form.get('order') === 'oldest') next.order = 'oldest';
    setParams(next);
  };

  return (
    <>
      <h1>Feedback</h1>
      <form className="filters" onSubmit={apply} aria-label="Filter feedback" key={params.toString()}>
        <label>
          Session <input name="sessionId" defaultValue={filter.sessionId} maxLength={256} />
        </label>
        <label>
          Query execution (queryId) <input name="queryId" defaultValue={filter.queryId} maxLength={256} />
        </label>
        <label>
          From (UTC) <input type="datetime-local" name="since" defaultValue={toLocal(filter.since)} />
        </label>
        <label>
          Until (UTC) <input type="datetime-local" name="until" defaultValue={toLocal(filter.until)} />
        </label>
        <label>
          Order{' '}
          <select name="order" defaultValue={oldestFirst ? 'oldest' : 'newest'}>
            <option value="newest">newest first</option>
            <option value="oldest">oldest first</option>
          </select>
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Filter
          </button>
          {(filtered || oldestFirst) && (
            <button type="button" onClick={() => setParams({})}>
              Clear
            </button>
          )}
        </div>
      </form>
      <p className="muted small">Items by the time they were received, {oldestFirst ? 'oldest' : 'newest'} first; event times in UTC.</p>
      {page.error && <ErrorState error={page.error} />}
      {page.isPending && <Loading what="feedback" />}
      {page.data && page.data.items.length === 0 && pager.page === 1 && (
        <EmptyState title={filtered ? 'No feedback matches these filters' : 'No feedback yet'}>
          {filtered ? (
            <p>Clear a filter or widen the time range.</p>
          ) : (
            <>
              <p>Your search front end sends impressions, clicks, ratings and dwell times here. Try one from a terminal:</p>
              <FeedbackCurl />
              <KeyNote />
            </>
          )}
        </EmptyState>
      )}
      {page.data && page.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="feedback-table">
            <caption className="sr-only">Feedback items</caption>
            <thead>
              <tr>
                <th scope="col">Event time</th>
                <th scope="col">Session</th>
                <th scope="col">Query</th>
                <th scope="col">Action</th>
                <th scope="col">Result</th>
                <th scope="col">Position</th>
                <th scope="col">Rating</th>
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((item) => {
                const position = item.metadata.customMetadata.position;
                return (
                  <tr key={item.itemId}>
                    <td className="nowrap">{dateTime(item.metadata.timestamp)}</td>
                    <td>
                      <button type="button" className="link" onClick={() => setParams({ sessionId: item.sessionId })}>
                        {item.sessionId}
                      </button>
                    </td>
                    <td>
                      {item.metadata.queryHash ?? <span className="muted">—</span>}
                      <div className="muted small">{item.queryId}</div>
                    </td>
                    <td>{item.metadata.userAction ?? '—'}</td>
                    <td>{item.metadata.resultId ?? '—'}</td>
                    <td>{typeof position === 'number' ? integer(position) : '—'}</td>
                    <td>{item.rating ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={pager.page} nextCursor={page.data?.nextCursor} onNext={pager.next} onPrevious={pager.previous} label="Feedback" />
      <EraseSession key={filter.sessionId} initial={filter.sessionId} />
    </>
  );
}

function EraseSession({ initial }: { initial: string }) {
  const [sessionId, setSessionId] = useState(initial);
  const [open, setOpen] = useState(false);
  const erase = useEraseSession();
  return (
    <section className="card" aria-labelledby="erase-title">
      <h2 id="erase-title">Erase a session</h2>
      <p className="muted small">For privacy requests: removes every feedback item and submission of one session. This cannot be undone.</p>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          erase.reset();
          if (sessionId.trim()) setOpen(true);
        }}
      >
        <label>
          Session to erase <input value={sessionId} onChange={(e) => setSessionId(e.target.value)} maxLength={256} required />
        </label>
        <div className="actions">
          <button type="submit" className="danger-outline">
            Erase…
          </button>
        </div>
      </form>
      {erase.data && !open && (
        <p className="callout callout-ok" role="status" data-testid="erase-result">
          <span aria-hidden="true">✓ </span>Erased session <code>{erase.data.sessionId}</code>: {integer(erase.data.deletedItems)} items in{' '}
          {integer(erase.data.deletedSubmissions)} submissions.
        </p>
      )}
      <ConfirmDialog
        open={open}
        title={`Erase session “${sessionId.trim()}”?`}
        confirmLabel="Erase session"
        danger
        busy={erase.isPending}
        error={erase.error}
        onConfirm={() => erase.mutate(sessionId.trim(), { onSuccess: () => setOpen(false) })}
        onCancel={() => setOpen(false)}
      >
        <p>Every feedback item and submission of this session is deleted now.</p>
      </ConfirmDialog>
    </section>
  );
}
