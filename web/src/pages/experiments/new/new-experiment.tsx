import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, type ErrorDetail } from '../../../api/client';
import { useRankers, useRankerVersions } from '../../../api/experiment-form';
import { useAliasList } from '../../../api/production';
import { useCreateExperiment } from '../../../api/queries';
import { errorsAt } from '../../../components/field';
import { ErrorState } from '../../../components/states';
import { useTitle } from '../../../components/title';
import { basicFields } from './basic-fields';
import { emptyDraft, experimentBody, type Draft, type UpdateDraft } from './draft';
import type { FieldErrors } from './field-errors';
import { metricFields } from './metric-fields';
import { promoteFields } from './promote-fields';
import { rankingFields } from './ranking-fields';
import { runFields } from './run-fields';
import { variantFields } from './variant-fields';

export function NewExperimentPage() {
  useTitle('New experiment');
  const navigate = useNavigate();
  const create = useCreateExperiment();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const update: UpdateDraft = (patch) => setDraft((d) => ({ ...d, ...(typeof patch === 'function' ? patch(d) : patch) }));
  const [localErrors, setLocalErrors] = useState<ErrorDetail[]>([]);
  const rankers = useRankers();
  const versions = useRankerVersions(draft.variants.map((v) => v.modelId));
  const aliases = useAliasList();
  const summaryRef = useRef<HTMLDivElement>(null);

  const failed = create.error !== null || localErrors.length > 0;
  // After a failed submit the summary at the top takes the focus: it says how many problems the fields show.
  useEffect(() => {
    if (failed) summaryRef.current?.focus();
  }, [failed, create.error, localErrors]);

  const details = [...localErrors, ...(create.error instanceof ApiError ? create.error.details : [])];
  const at = (path: string, exact = false) => errorsAt(details, path, exact);
  const shown = new Set<string>();
  const track = (path: string, exact = false) => {
    for (const d of details) if (d.path === path || (!exact && d.path.startsWith(`${path}/`))) shown.add(`${d.path}:${d.message}`);
    return at(path, exact);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.reset();
    const { body, problems } = experimentBody(draft);
    setLocalErrors(problems);
    if (problems.length) return;
    create.mutate(body, { onSuccess: (e) => navigate(`/experiments/${e.experimentId}`) });
  };

  // The field groups are called as functions, not rendered as components: `track` must have marked
  // every problem shown beside a field before `unplaced` below is computed, in this same render.
  const errors: FieldErrors = { at, track };
  const fields = (
    <>
      {basicFields(errors, draft, update)}
      {rankingFields(errors, draft, update)}
      {variantFields(errors, draft, update, { rankers: rankers.data?.items, error: rankers.error, versions })}
      {promoteFields(errors, draft, update, { aliases: aliases.data?.items, error: aliases.error })}
      {metricFields(errors, draft, update)}
      {runFields(errors, draft, update)}
    </>
  );
  const unplaced = details.filter((d) => !shown.has(`${d.path}:${d.message}`));
  const placed = details.length - unplaced.length;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/experiments">← Experiments</Link>
      </p>
      <h1>New experiment</h1>
      <form onSubmit={submit} noValidate className="form" aria-describedby={failed ? 'form-error' : undefined}>
        {failed && (
          <div id="form-error" ref={summaryRef} tabIndex={-1} data-testid="form-summary">
            {create.error !== null ? (
              <ErrorState
                error={
                  create.error instanceof ApiError
                    ? new ApiError(create.error.status, create.error.code, create.error.message, unplaced, create.error.requestId)
                    : create.error
                }
                title="The experiment was not created"
              />
            ) : null}
            {placed > 0 && (
              <p className="field-error" role="status">
                <span aria-hidden="true">⚠ </span>
                {placed === 1 ? 'One problem is' : `${placed} problems are`} marked next to {placed === 1 ? 'its field' : 'their fields'}{' '}
                below.
              </p>
            )}
          </div>
        )}
        {fields}
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create experiment'}
          </button>
          <Link to="/experiments">Cancel</Link>
        </div>
      </form>
    </>
  );
}
