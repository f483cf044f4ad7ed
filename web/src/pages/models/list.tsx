import { Link } from 'react-router';
import { useModels } from '../../api/queries';
import { StatusBadge, OutcomeBadge } from '../../components/badges';
import { Pager, useCursorPager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { relativeTime } from '../../format';
import { KeyNote, ModelCurl } from '../getting-started';

export function ModelsPage() {
  useTitle('Models');
  const pager = useCursorPager('models');
  const list = useModels({ limit: 20, ...(pager.cursor ? { cursor: pager.cursor } : {}) });
  return (
    <>
      <h1>Models</h1>
      {list.error && <ErrorState error={list.error} />}
      {list.isPending && <Loading what="models" />}
      {list.data && list.data.items.length === 0 && pager.page === 1 && (
        <EmptyState title="No models yet">
          <p>
            Click models learn from your feedback which results are relevant despite position bias; rankers learn an order. The server
            registers the click model <code>default</code> on its first start; register another with:
          </p>
          <ModelCurl />
          <KeyNote />
        </EmptyState>
      )}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Models, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Active version</th>
                <th scope="col" className="hide-narrow">
                  Last training
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((m) => (
                <tr key={m.modelId} data-testid={`model-${m.modelId}`}>
                  <td>
                    <Link to={`/models/${encodeURIComponent(m.modelId)}`}>{m.name}</Link>
                    <div className="muted small">
                      <code>{m.modelId}</code>
                    </div>
                  </td>
                  <td>{m.type.replace('_', ' ')}</td>
                  <td>
                    <StatusBadge status={m.status} />
                  </td>
                  <td>{m.activeVersion === null ? '—' : `v${m.activeVersion}`}</td>
                  <td className="hide-narrow">
                    {m.lastTraining ? (
                      <>
                        <OutcomeBadge outcome={m.lastTraining.outcome} /> {relativeTime(m.lastTraining.at)}
                      </>
                    ) : (
                      'not yet'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={pager.page} nextCursor={list.data?.nextCursor} onNext={pager.next} onPrevious={pager.previous} label="Models" />
    </>
  );
}
