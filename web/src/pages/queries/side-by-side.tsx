import { Link, useParams, useSearchParams } from 'react-router';
import { useSideBySide, type Side, type SideBySide, type SideRow } from '../../api/side-by-side';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { dateTime, integer, number, percent } from '../../format';
import { RankerPicker, defaultRight, useRankerChoices } from './ranker-picker';
import { movementText, servedLabel } from './side-by-side-text';
import './side-by-side.css';

const K_CHOICES = [5, 10, 20, 50];

function movementTitle(m: SideRow['movement'], other: string, k: number): string {
  if (m.kind === 'new') return `not in the ${other} top ${k} (${other}: #${m.otherRank})`;
  if (m.kind === 'same') return `same place on the ${other}`;
  return `${m.by} ${m.by === 1 ? 'place' : 'places'} ${m.kind === 'up' ? 'higher' : 'lower'} than on the ${other} (#${m.otherRank})`;
}

function SideList({ name, side, other, k, scale }: { name: 'left' | 'right'; side: Side; other: string; k: number; scale: number }) {
  return (
    <section className="card sbs-side" data-testid={`side-${name}`} aria-labelledby={`side-${name}-title`}>
      <h2 id={`side-${name}-title`} className="sbs-title">
        <span className="muted small">{name === 'left' ? 'Left' : 'Right'}</span> {servedLabel(side)}
      </h2>
      <p className="muted small" data-testid="summary">
        Relevance DCG@{k}: <strong>{number(side.summary.relevanceDcg)}</strong>
        {side.summary.unjudged > 0 && ` · ${side.summary.unjudged} without a relevance estimate`}
      </p>
      <ol className="sbs-list">
        {side.results.map((r) => (
          <li key={r.resultId} className="sbs-row" data-testid="sbs-row" data-result-id={r.resultId}>
            <span className="sbs-rank">{r.rank}</span>
            <span className="sbs-main">
              <code className="sbs-id">{r.resultId}</code>
              <span className="sbs-bar" role="img" aria-label={`relevance ${number(r.relevance)}`}>
                <span
                  className="sbs-bar-fill"
                  style={{ width: `${r.relevance === null ? 0 : Math.min(100, (r.relevance / scale) * 100)}%` }}
                />
              </span>
              <span className="muted small">
                relevance {number(r.relevance)} · CTR {percent(r.ctr)} ({integer(r.clicks)} of {integer(r.impressions)}) · engine #
                {r.originalPosition}
                {r.score !== null && ` · score ${number(r.score)}`}
              </span>
            </span>
            <span
              className={`sbs-move sbs-move-${r.movement.kind}`}
              data-testid="movement"
              title={movementTitle(r.movement, other, k)}
              aria-label={movementTitle(r.movement, other, k)}
            >
              {movementText(r.movement)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Figures({ data }: { data: SideBySide }) {
  const f = data.figures;
  const items: [string, string, string?][] = [
    ['Searches', integer(f.searches)],
    ['CTR', percent(f.ctr)],
    ['Abandonment', percent(f.abandonmentRate)],
    ['MRR', number(f.mrr)],
    ['Mean first click position', number(f.meanFirstClickPosition)],
    [`In both top ${data.k}`, `${integer(data.overlap)} of ${integer(Math.min(data.k, data.candidates.length))}`, 'overlap'],
  ];
  return (
    <dl className="sbs-figures" data-testid="sbs-figures">
      {items.map(([label, value, testId]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function SideBySidePage() {
  const { queryHash = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const choices = useRankerChoices();
  const left = params.get('left') ?? 'original';
  const right = params.get('right') ?? (choices.loading ? null : defaultRight(choices));
  const k = Number(params.get('k') ?? 10);
  const q = useSideBySide(queryHash, right === null ? null : { left, right, k, model: params.get('model') ?? undefined });
  useTitle(`Side by side: ${q.data?.queryText ?? queryHash}`);
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    if (key !== 'right' && right !== null) next.set('right', right);
    setParams(next, { replace: true });
  };
  // One relevance scale for both sides, so equal bars mean equal relevance.
  const scale = Math.max(1e-9, ...[...(q.data?.left.results ?? []), ...(q.data?.right.results ?? [])].map((r) => r.relevance ?? 0));
  return (
    <>
      <p className="muted small">
        <Link to={`/queries/${encodeURIComponent(queryHash)}`}>← Query {q.data?.queryText ?? queryHash}</Link>
      </p>
      <h1>
        Side by side: <q>{q.data?.queryText ?? queryHash}</q>
      </h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Rankers to compare">
        <RankerPicker side="Left" value={left} choices={choices} onChange={(v) => set('left', v)} />
        {right !== null && <RankerPicker side="Right" value={right} choices={choices} onChange={(v) => set('right', v)} />}
        <label>
          Results per side
          <select value={String(k)} onChange={(e) => set('k', e.target.value)}>
            {K_CHOICES.map((n) => (
              <option key={n} value={n}>
                top {n}
              </option>
            ))}
          </select>
        </label>
      </form>
      {right === null && !choices.loading && (
        <EmptyState title="No ranker to compare yet">
          <p>
            Train a ranker in <Link to="/models">Models</Link> (or point an alias at one): this page then lists this query’s results as the
            engine ordered them and as the ranker would.
          </p>
        </EmptyState>
      )}
      {q.error && <ErrorState error={q.error} title="These rankers cannot be compared on this query" />}
      {q.isFetching && !q.data && <Loading what="both rankings" />}
      {q.data && (
        <>
          <p className="muted small">
            <code>{q.data.queryHash}</code> · {dateTime(q.data.window.from)} – {dateTime(q.data.window.to)} ·{' '}
            {integer(q.data.candidates.length)} logged results ranked by each side
            {q.data.candidates.some((c) => c.features) && ', with the features feedback logged for them'} · relevance from{' '}
            {q.data.relevanceModel.modelId}
            {q.data.relevanceModel.version !== null
              ? ` v${q.data.relevanceModel.version}`
              : ` (${q.data.relevanceModel.reason ?? 'no estimate'})`}
          </p>
          <Figures data={q.data} />
          {q.data.candidates.length === 0 ? (
            <EmptyState title="No results logged for this query">
              <p>Feedback in this window names no result of this query, so there is nothing to rank.</p>
            </EmptyState>
          ) : (
            <div className="sbs-grid">
              <SideList name="left" side={q.data.left} other="right" k={q.data.k} scale={scale} />
              <SideList name="right" side={q.data.right} other="left" k={q.data.k} scale={scale} />
            </div>
          )}
          <p className="muted small">
            Each side is ordered by the code <code>rank</code> serves with: the engine’s order is the results by mean logged position; a
            ranker’s order is by its score, ties kept in the engine’s order. ▲ and ▼ read a result against the other side; “new” is outside
            the other side’s top {q.data.k}.
          </p>
        </>
      )}
    </>
  );
}
