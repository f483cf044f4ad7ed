import { useEvaluationList } from '../../api/evaluations';
import { StatusBadge } from '../../components/badges';
import { Pager, useCursorPager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { dateTime, percent, relativeTime } from '../../format';
import { candidateLabel } from './derive';

/** Every evaluation, newest first, ten a page; Show puts one beside those on screen. */
export function EvaluationHistory({ shown, onShow }: { shown: string[]; onShow: (evaluationId: string) => void }) {
  const pager = useCursorPager('evaluations');
  const list = useEvaluationList({ limit: 10, ...(pager.cursor ? { cursor: pager.cursor } : {}) });
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Past evaluations</h2>
      {list.isPending && <Loading what="past evaluations" />}
      {list.error && <ErrorState error={list.error} />}
      {list.data && list.data.items.length === 0 && pager.page === 1 && (
        <EmptyState title="No evaluation yet">
          <p>Run one above: each is kept here with its window, estimator and answer.</p>
        </EmptyState>
      )}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table results-table stack-narrow" data-testid="evaluation-history">
            <caption className="sr-only">Past evaluations, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Candidate</th>
                <th scope="col">Created</th>
                <th scope="col">Window</th>
                <th scope="col">Estimator</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
                <th scope="col">
                  <span className="sr-only">Show</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((e) => (
                <tr key={e.evaluationId} data-testid={`history-${e.evaluationId}`}>
                  <th scope="row">{candidateLabel(e)}</th>
                  <td data-label="Created" title={dateTime(e.createdAt)}>
                    {relativeTime(e.createdAt)}
                  </td>
                  <td data-label="Window">
                    {dateTime(e.window.from).slice(0, 10)} – {dateTime(e.window.to).slice(0, 10)}
                  </td>
                  <td data-label="Estimator">{e.estimator}</td>
                  <td data-label="Status">
                    <StatusBadge status={e.status} />
                  </td>
                  <td data-label="Answer">
                    <span className="wrap">
                      {e.status === 'done'
                        ? e.enoughCoverage === false
                          ? `no estimate: coverage ${percent(e.coverage, 1)}`
                          : (e.summary ?? '—')
                        : e.status === 'failed'
                          ? (e.error ?? 'failed')
                          : `running, ${percent(e.progress, 0)}`}
                    </span>
                  </td>
                  <td data-label="">
                    <button
                      type="button"
                      disabled={shown.includes(e.evaluationId)}
                      onClick={() => onShow(e.evaluationId)}
                      aria-label={`Show the evaluation of ${candidateLabel(e)} from ${dateTime(e.createdAt)}`}
                    >
                      {shown.includes(e.evaluationId) ? 'Shown' : 'Show'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={pager.page} nextCursor={list.data?.nextCursor} onNext={pager.next} onPrevious={pager.previous} label="Evaluations" />
    </section>
  );
}
