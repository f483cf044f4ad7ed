import { Link, useSearchParams } from 'react-router';
import { useExperiments } from '../../api/queries';
import type { ExperimentStatus } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Pager, useCursorPager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { dateTime } from '../../format';
import { ExperimentCurl, KeyNote } from '../getting-started';

export const EXPERIMENT_STATUSES: ExperimentStatus[] = ['created', 'scheduled', 'running', 'paused', 'stopped', 'concluded', 'archived'];
const PAGE_SIZE = 20;

export function ExperimentsPage() {
  useTitle('Experiments');
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = EXPERIMENT_STATUSES.find((s) => s === raw);
  const pager = useCursorPager(status ?? 'all');
  const list = useExperiments({ limit: PAGE_SIZE, ...(status ? { status } : {}), ...(pager.cursor ? { cursor: pager.cursor } : {}) });
  return (
    <>
      <div className="page-head">
        <h1>Experiments</h1>
        <Link to="/experiments/new" className="button primary">
          New experiment
        </Link>
      </div>
      <div className="filters">
        <label>
          Status{' '}
          <select value={status ?? ''} onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}>
            <option value="">any</option>
            {EXPERIMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.error && <ErrorState error={list.error} />}
      {list.isPending && <Loading what="experiments" />}
      {list.data && list.data.items.length === 0 && pager.page === 1 && (
        <EmptyState title={status ? `No ${status} experiments` : 'No experiments yet'}>
          {status ? (
            <p>Choose another status, or “any”.</p>
          ) : (
            <>
              <p>
                An experiment splits sessions between variants and measures the difference on metrics such as CTR and MRR.{' '}
                <Link to="/experiments/new">Create one here</Link>, or with curl:
              </p>
              <ExperimentCurl />
              <KeyNote />
            </>
          )}
        </EmptyState>
      )}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Experiments, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Variants</th>
                <th scope="col" className="hide-narrow">
                  Metrics
                </th>
                <th scope="col" className="hide-narrow">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((e) => (
                <tr key={e.experimentId}>
                  <td>
                    <Link to={`/experiments/${e.experimentId}`}>{e.name}</Link>
                  </td>
                  <td>
                    <StatusBadge status={e.status} />
                  </td>
                  <td>{e.variants.map((v) => v.id).join(', ')}</td>
                  <td className="hide-narrow">{e.configuration.targetMetrics.join(', ')}</td>
                  <td className="hide-narrow">{dateTime(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={pager.page} nextCursor={list.data?.nextCursor} onNext={pager.next} onPrevious={pager.previous} label="Experiments" />
    </>
  );
}
