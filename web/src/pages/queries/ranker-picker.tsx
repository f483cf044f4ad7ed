import { useAliasList } from '../../api/production';
import { useModels, useVersions } from '../../api/queries';

/** What one side of the side-by-side can be: the engine's order, an alias, or a ranker (its active or a fixed version). */
export interface RankerChoices {
  aliases: { alias: string; modelId: string | null; servingVersion: number | null }[];
  rankers: { modelId: string; activeVersion: number | null }[];
  loading: boolean;
}

export function useRankerChoices(): RankerChoices {
  const aliases = useAliasList();
  const models = useModels({ limit: 200 });
  return {
    aliases: aliases.data?.items ?? [],
    rankers: (models.data?.items ?? []).filter((m) => m.type === 'ranker' && m.activeVersion !== null),
    loading: aliases.isPending || models.isPending,
  };
}

/** The right-hand default: what production serves, else the first trained ranker; null when there is nothing to compare. */
export function defaultRight(choices: RankerChoices): string | null {
  if (choices.aliases.some((a) => a.alias === 'production')) return 'alias:production';
  const first = choices.aliases[0] ?? null;
  if (first) return `alias:${first.alias}`;
  const ranker = choices.rankers[0];
  return ranker ? `model:${ranker.modelId}` : null;
}

/** "model:ranker-a@5" → {base: "model:ranker-a", version: "5"}; other specs have no version. */
function split(spec: string): { base: string; version: string } {
  const at = spec.startsWith('model:') ? spec.lastIndexOf('@') : -1;
  return at < 0 ? { base: spec, version: '' } : { base: spec.slice(0, at), version: spec.slice(at + 1) };
}

function VersionSelect({
  side,
  modelId,
  value,
  onChange,
}: {
  side: string;
  modelId: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const versions = useVersions(modelId, null);
  return (
    <label>
      {side} version
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">active version</option>
        {(versions.data?.items ?? []).map((v) => (
          <option key={v.version} value={String(v.version)}>
            v{v.version}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A ranker select, and for a model the version to use (blank: the active one, as its rank endpoint serves). */
export function RankerPicker({
  side,
  value,
  choices,
  onChange,
}: {
  side: 'Left' | 'Right';
  value: string;
  choices: RankerChoices;
  onChange: (spec: string) => void;
}) {
  const { base, version } = split(value);
  const known =
    base === 'original' ||
    choices.aliases.some((a) => `alias:${a.alias}` === base) ||
    choices.rankers.some((m) => `model:${m.modelId}` === base);
  return (
    <>
      <label>
        {side} ranker
        <select value={base} onChange={(e) => onChange(e.target.value)}>
          <option value="original">Engine order (as logged)</option>
          {choices.aliases.map((a) => (
            <option key={a.alias} value={`alias:${a.alias}`}>
              Alias {a.alias}
              {a.modelId && a.servingVersion !== null ? ` (${a.modelId} v${a.servingVersion})` : ' (engine order)'}
            </option>
          ))}
          {choices.rankers.map((m) => (
            <option key={m.modelId} value={`model:${m.modelId}`}>
              Ranker {m.modelId}
            </option>
          ))}
          {!known && (
            <option value={base}>{base.replace(/^(alias|model):/, (_, kind: string) => (kind === 'alias' ? 'Alias ' : 'Ranker '))}</option>
          )}
        </select>
      </label>
      {choices.rankers.some((m) => `model:${m.modelId}` === base) && (
        <VersionSelect
          side={side}
          modelId={base.slice('model:'.length)}
          value={version}
          onChange={(v) => onChange(v ? `${base}@${v}` : base)}
        />
      )}
    </>
  );
}
