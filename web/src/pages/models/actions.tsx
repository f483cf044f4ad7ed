import { useState } from 'react';
import { download } from '../../api/client';
import { useTrain } from '../../api/queries';
import type { Model } from '../../api/types';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorState } from '../../components/states';

/** Queues a training run (with confirmation) and follows it until the model records its outcome. */
export function TrainButton({ model }: { model: Model }) {
  const [open, setOpen] = useState(false);
  const [force, setForce] = useState(false);
  const train = useTrain(model.modelId);
  return (
    <div className="actions">
      <button
        type="button"
        onClick={() => {
          train.reset();
          setOpen(true);
        }}
        disabled={model.status === 'archived'}
      >
        Train now
      </button>
      {train.data && !open && (
        <span className="muted small" role="status" data-testid="train-status">
          {Date.parse(model.lastTraining?.at ?? '1970-01-01T00:00:00Z') >= Date.parse(train.data.requestedAt)
            ? `Training finished: ${model.lastTraining?.outcome}`
            : `Training ${train.data.status}…`}{' '}
          (job <code>{train.data.jobId}</code>)
        </span>
      )}
      <ConfirmDialog
        open={open}
        title={`Train ${model.name} now?`}
        confirmLabel="Train"
        busy={train.isPending}
        error={train.error}
        onConfirm={() => train.mutate(force, { onSuccess: () => setOpen(false) })}
        onCancel={() => setOpen(false)}
      >
        <p>A run over the model's window is queued; a version better on held-out data than the active one replaces it.</p>
        <label className="inline">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Activate the new version even if it is
          worse
        </label>
      </ConfirmDialog>
    </div>
  );
}

/** A click model's judgments, or a ranker's and predictor's trees, as files (fetched with the API key). */
export function Downloads({ model }: { model: Model }) {
  const [error, setError] = useState<unknown>(null);
  const base = `/api/nous/learn/models/${encodeURIComponent(model.modelId)}`;
  const files =
    model.type === 'click_model'
      ? [
          { label: 'Judgments (OpenSearch SRW JSON)', url: `${base}/judgments?format=json`, name: `${model.modelId}-judgments.json` },
          { label: 'Judgments (RankLib)', url: `${base}/judgments?format=ranklib`, name: `${model.modelId}-judgments.txt` },
          { label: 'Judgments (CSV)', url: `${base}/judgments?format=csv`, name: `${model.modelId}-judgments.csv` },
        ]
      : [
          { label: 'Export (XGBoost JSON)', url: `${base}/export?format=xgboost-json`, name: `${model.modelId}-xgboost.json` },
          { label: 'Export (LTR plugin)', url: `${base}/export?format=ltr-plugin`, name: `${model.modelId}-ltr-plugin.json` },
          { label: 'Export (native)', url: `${base}/export?format=native`, name: `${model.modelId}-native.json` },
        ];
  return (
    <div className="downloads">
      <h3 className="small">Downloads</h3>
      <div className="actions">
        {files.map((f) => (
          <button
            key={f.url}
            type="button"
            className="link"
            onClick={() => {
              setError(null);
              download(f.url, f.name).catch(setError);
            }}
          >
            ⤓ {f.label}
          </button>
        ))}
      </div>
      {error !== null && <ErrorState error={error} title="Download failed" />}
    </div>
  );
}
