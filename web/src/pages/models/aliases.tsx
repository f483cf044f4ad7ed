import { useState } from 'react';
import { Link } from 'react-router';
import { currentTarget, useAlias, useAliasList, useExperimentsTestingModel, useMoveAlias } from '../../api/production';
import { useVersions } from '../../api/queries';
import type { Model } from '../../api/types';
import { ConfirmDialog } from '../../components/dialog';
import { Field } from '../../components/field';
import { ErrorState, Loading } from '../../components/states';
import { AliasPicker } from '../production/alias-picker';
import { describeTarget } from '../production/describe';
import { ReasonField } from '../production/move-dialog';
import { Serves } from '../production/served';

/** The aliases (production, …) that point at this ranker, and shipping one of its versions without an experiment. */
export function ModelAliases({ model }: { model: Model }) {
  const aliases = useAliasList();
  const [open, setOpen] = useState(false);
  const [shipped, setShipped] = useState<string | null>(null);
  const mine = aliases.data?.items.filter((a) => a.modelId === model.modelId) ?? [];
  return (
    <section className="card" aria-labelledby="aliases-title">
      <div className="page-head">
        <h2 id="aliases-title">Aliases</h2>
        <button type="button" onClick={() => setOpen(true)} disabled={model.activeVersion === null} data-testid="ship-version">
          Ship a version…
        </button>
      </div>
      {aliases.error && <ErrorState error={aliases.error} />}
      {aliases.isPending && <Loading what="aliases" />}
      {aliases.data && mine.length === 0 && (
        <p className="muted">
          No alias points at this ranker, so it serves only the experiments that name it. Ship it by concluding such an experiment, or with
          “Ship a version…”.
        </p>
      )}
      {mine.length > 0 && (
        <ul className="list">
          {mine.map((a) => (
            <li key={a.alias} data-testid={`model-alias-${a.alias}`}>
              <code>{a.alias}</code> serves <Serves alias={a} />
            </li>
          ))}
        </ul>
      )}
      {shipped && (
        <p className="callout callout-ok" role="status" data-testid="shipped">
          {shipped}
        </p>
      )}
      <p>
        <Link to="/production">Every alias, its history and rollback →</Link>
      </p>
      {open && (
        <ShipDialog
          model={model}
          onDone={(message) => {
            setShipped(message);
            setOpen(false);
          }}
          onCancel={() => setOpen(false)}
        />
      )}
    </section>
  );
}

const ACTIVE = 'active';

/** Point an alias (existing or new) at a version, warning that no experiment has tested it online. */
function ShipDialog({ model, onDone, onCancel }: { model: Model; onDone: (message: string) => void; onCancel: () => void }) {
  const aliases = useAliasList();
  const versions = useVersions(model.modelId, model.activeVersion);
  const [alias, setAlias] = useState(aliases.data?.items.some((a) => a.alias === 'production') ? 'production' : '');
  const [version, setVersion] = useState(model.activeVersion === null ? ACTIVE : String(model.activeVersion));
  const [reason, setReason] = useState('');
  const before = useAlias(alias === '' ? null : alias);
  const tested = useExperimentsTestingModel(model.modelId, true);
  const move = useMoveAlias();
  const target = { modelId: model.modelId, version: version === ACTIVE ? null : Number(version) };
  const evidence = (tested.data ?? []).filter((t) => target.version === null || t.version === target.version);
  const trained = versions.data?.items ?? [];
  return (
    <ConfirmDialog
      open
      title={`Ship ${model.name} without an experiment?`}
      confirmLabel="Ship"
      busy={move.isPending}
      error={move.error}
      onConfirm={() => {
        if (alias === '' || reason.trim() === '') return;
        move.mutate(
          { alias, target, reason: reason.trim() },
          { onSuccess: (view) => onDone(`“${view.alias}” now serves ${describeTarget(currentTarget(view))}.`) },
        );
      }}
      onCancel={onCancel}
    >
      <div className="form-grid">
        {aliases.data && <AliasPicker aliases={aliases.data.items} value={alias} onChange={setAlias} label="Alias to point" />}
        <Field label="Version" errors={[]}>
          {(ids) => (
            <select id={ids.input} value={version} onChange={(e) => setVersion(e.target.value)}>
              <option value={ACTIVE}>Whichever version is active (follows future trainings)</option>
              {trained.map((v) => (
                <option key={v.version} value={String(v.version)}>
                  v{v.version}
                  {v.active ? ' (active)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {alias !== '' && (
          <p data-testid="ship-preview">
            <code>{alias}</code> moves from <strong>{describeTarget(before.data ? currentTarget(before.data) : null)}</strong> to{' '}
            <strong>{describeTarget(target)}</strong>.
          </p>
        )}
        <div className={`callout ${evidence.length === 0 ? 'callout-error' : 'callout-empty'}`} data-testid="evidence">
          {evidence.length === 0 ? (
            <p>
              <strong>No online evidence exists yet for {describeTarget(target)}:</strong> no experiment has served it to real searches. Its
              held-out figures are offline; an A/B or interleaving test is how to know it does better for real users.
            </p>
          ) : (
            <p>
              <strong>Online evidence:</strong> experiments that served {target.version === null ? 'this model' : `v${target.version}`}:{' '}
              {evidence.map((t, i) => (
                <span key={`${t.experiment.experimentId}-${t.variant.id}`}>
                  {i > 0 && ', '}
                  <Link to={`/experiments/${t.experiment.experimentId}`}>{t.experiment.name}</Link> ({t.experiment.status}
                  {t.version !== null && `, v${t.version}`})
                </span>
              ))}
              . Shipping by hand skips their decision: check their results first.
            </p>
          )}
        </div>
        <ReasonField reason={reason} onReason={setReason} />
      </div>
    </ConfirmDialog>
  );
}
