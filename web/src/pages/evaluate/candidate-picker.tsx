import { useId, useState, type ChangeEvent } from 'react';
import type { CandidateInput } from '../../api/evaluations';
import { useRankers, useRankerVersions } from '../../api/experiment-form';
import { useAliasList } from '../../api/production';
import { integer } from '../../format';

export interface CandidateChoice {
  key: string;
  label: string;
  input: CandidateInput;
  /** Sent as the evaluation's name (an uploaded file's name, so the list says which file it was). */
  name?: string;
}

/**
 * A ranking file as teams export it from their engine: `{queryHash: [resultId, …]}`. Read in the
 * browser; anything else is refused here with what is wrong, before the service is asked.
 */
export function parseRankings(text: string): { rankings: Record<string, string[]>; queries: number } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'must be a JSON object {queryHash: [resultId, …]}' };
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return { problem: 'holds no query' };
  for (const [q, list] of entries) {
    if (!Array.isArray(list) || !list.every((id) => typeof id === 'string')) {
      return { problem: `the ranking of "${q.slice(0, 60)}" must be an array of result ids (strings)` };
    }
  }
  return { rankings: value as Record<string, string[]>, queries: entries.length };
}

let counter = 0;
const nextKey = () => `c${(counter += 1)}`;

/** Adds candidates three ways: a ranker version, an alias, or an uploaded ranking file. */
export function CandidatePicker({ chosen, onChange }: { chosen: CandidateChoice[]; onChange: (c: CandidateChoice[]) => void }) {
  const id = useId();
  const rankers = useRankers();
  const aliases = useAliasList();
  const [modelId, setModelId] = useState('');
  const [version, setVersion] = useState('');
  const [alias, setAlias] = useState('');
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const add = (c: Omit<CandidateChoice, 'key'>) => {
    if (chosen.some((x) => x.label === c.label)) return;
    onChange([...chosen, { ...c, key: nextKey() }]);
  };
  const model = modelId || rankers.data?.items[0]?.modelId || '';
  const versions = useRankerVersions(model ? [model] : []).get(model)?.versions;
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const parsed = parseRankings(await file.text());
    if ('problem' in parsed) {
      setFileProblem(`${file.name}: ${parsed.problem}`);
      return;
    }
    setFileProblem(null);
    add({ label: `${file.name} (${integer(parsed.queries)} queries)`, name: file.name, input: { rankings: parsed.rankings } });
  };
  return (
    <fieldset>
      <legend>Candidates</legend>
      {chosen.length === 0 ? (
        <p className="muted small">No candidate yet: add one or more below; each is evaluated against what actually served.</p>
      ) : (
        <ul className="list" data-testid="chosen-candidates">
          {chosen.map((c) => (
            <li key={c.key}>
              <span>{c.label}</span>{' '}
              <button type="button" onClick={() => onChange(chosen.filter((x) => x.key !== c.key))} aria-label={`Remove ${c.label}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-model`}>Ranker</label>
          <select id={`${id}-model`} value={model} onChange={(e) => (setModelId(e.target.value), setVersion(''))}>
            {(rankers.data?.items ?? []).length === 0 && <option value="">no ranker yet</option>}
            {(rankers.data?.items ?? []).map((m) => (
              <option key={m.modelId} value={m.modelId}>
                {m.name} ({m.modelId})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-version`}>Version</label>
          <select id={`${id}-version`} value={version} onChange={(e) => setVersion(e.target.value)} disabled={!model}>
            <option value="">the active version</option>
            {(versions ?? []).map((v) => (
              <option key={v.version} value={String(v.version)}>
                v{v.version}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <span aria-hidden="true">&nbsp;</span>
          <button
            type="button"
            disabled={!model}
            onClick={() =>
              add({
                label: version ? `v${version} of ${model}` : `${model} (active version)`,
                input: { modelId: model, ...(version ? { version: Number(version) } : {}) },
              })
            }
          >
            Add ranker version
          </button>
        </div>
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-alias`}>Alias</label>
          <select id={`${id}-alias`} value={alias || aliases.data?.items[0]?.alias || ''} onChange={(e) => setAlias(e.target.value)}>
            {(aliases.data?.items ?? []).length === 0 && <option value="">no alias yet</option>}
            {(aliases.data?.items ?? []).map((a) => (
              <option key={a.alias} value={a.alias}>
                {a.alias} {a.modelId ? `(v${a.version ?? 'active'} of ${a.modelId})` : '(original order)'}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <span aria-hidden="true">&nbsp;</span>
          <button
            type="button"
            disabled={(aliases.data?.items ?? []).length === 0}
            onClick={() => {
              const a = alias || aliases.data?.items[0]?.alias;
              if (a) add({ label: `alias ${a}`, input: { alias: a } });
            }}
          >
            Add alias
          </button>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>Ranking file (JSON: {'{"queryHash": ["resultId", …]}'})</label>
        <input id={`${id}-file`} type="file" accept="application/json,.json" onChange={(e) => void readFile(e)} />
        {fileProblem && (
          <p className="field-error" role="alert">
            <span aria-hidden="true">⚠ </span>
            {fileProblem}
          </p>
        )}
      </div>
    </fieldset>
  );
}
