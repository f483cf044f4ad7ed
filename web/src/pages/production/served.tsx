import { Link } from 'react-router';
import { useExperiment } from '../../api/queries';
import type { AliasView } from '../../api/production';
import { ORIGINAL_ORDER } from './describe';

/** What an alias serves now, in words, with a link to the model. */
export function Serves({ alias }: { alias: AliasView }) {
  if (alias.modelId === null) return <strong>{ORIGINAL_ORDER}</strong>;
  const model = <Link to={`/models/${encodeURIComponent(alias.modelId)}`}>{alias.modelId}</Link>;
  if (alias.version !== null) {
    return (
      <strong>
        v{alias.version} of {model}
      </strong>
    );
  }
  return (
    <>
      <strong>{model}</strong>, following its active version{' '}
      {alias.servingVersion === null ? '(none trained yet: the original order serves)' : `(now v${alias.servingVersion})`}
    </>
  );
}

/** A link to an experiment, named once its record has loaded. */
export function ExperimentLink({ experimentId }: { experimentId: string }) {
  const experiment = useExperiment(experimentId);
  return <Link to={`/experiments/${experimentId}`}>{experiment.data?.name ?? 'the experiment'}</Link>;
}
