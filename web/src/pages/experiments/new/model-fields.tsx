import type { ReactNode } from 'react';
import type { Model, ModelVersion } from '../../../api/types';
import { Field, invalid } from '../../../components/field';
import type { VariantDraft } from './draft';
import type { FieldErrors } from './field-errors';

/** The registry's rankers and the versions of those chosen, as the page read them. */
export interface RankerChoices {
  rankers: Model[] | undefined;
  error: Error | null;
  versions: Map<string, { versions: ModelVersion[] | undefined; error: unknown }>;
}

const versionLabel = (v: ModelVersion) =>
  `v${v.version}${v.active ? ' · active now' : v.outcome === 'rejected' ? ' · not activated by training' : v.outcome === 'imported' ? ' · imported' : ''}`;

/** A variant's ranker and version. A function, not a component: see new-experiment.tsx. */
export function modelFields(
  { at, track }: FieldErrors,
  i: number,
  v: VariantDraft,
  change: (patch: Partial<VariantDraft>) => void,
  { rankers, error, versions }: RankerChoices,
): ReactNode {
  const base = `/configuration/variants/${i}/model`;
  const modelErrors = [...track(`${base}/modelId`), ...track(base, true)];
  const chosen = rankers?.find((m) => m.modelId === v.modelId);
  const known = versions.get(v.modelId);
  const rankerHint = error
    ? `The rankers could not be read: ${error.message}`
    : rankers && rankers.length === 0
      ? 'No ranker in the registry yet: register and train one on the Models page.'
      : chosen && chosen.activeVersion === null
        ? 'No trained version yet: the experiment can be created, but not started until one is trained.'
        : undefined;
  // A row of its own inside the variant's grid (1 / -1 spans every column at any width), so ranker names are not cut.
  return (
    <div className="form-row" style={{ gridColumn: '1 / -1' }}>
      <Field label="Ranker" errors={modelErrors} hint={rankerHint}>
        {(ids) => (
          <select
            id={ids.input}
            aria-describedby={ids.described || undefined}
            {...invalid(modelErrors)}
            value={v.modelId}
            onChange={(e) => change({ modelId: e.target.value, version: '' })}
          >
            <option value="">none: the engine’s original order</option>
            {!rankers && !error && <option disabled>Loading rankers…</option>}
            {/* A ranker typed in before the list arrived, or since gone, stays selectable so the server can say what is wrong. */}
            {v.modelId && !chosen && <option value={v.modelId}>{v.modelId}</option>}
            {rankers?.map((m) => (
              <option key={m.modelId} value={m.modelId}>
                {m.name === m.modelId ? m.name : `${m.name} (${m.modelId})`}
              </option>
            ))}
          </select>
        )}
      </Field>
      {v.modelId && (
        <Field
          label="Version"
          errors={track(`${base}/version`)}
          hint="Fixed when the experiment starts: a retrain during the test changes nothing"
        >
          {(ids) => (
            <select
              id={ids.input}
              aria-describedby={ids.described || undefined}
              {...invalid(at(`${base}/version`))}
              value={v.version}
              onChange={(e) => change({ version: e.target.value })}
            >
              <option value="">active version at start{chosen?.activeVersion ? ` (v${chosen.activeVersion} now)` : ''}</option>
              {known?.versions?.map((mv) => (
                <option key={mv.version} value={String(mv.version)}>
                  {versionLabel(mv)}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </div>
  );
}
