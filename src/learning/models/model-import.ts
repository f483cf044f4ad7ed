import { SILENT_EVENTS, type DomainEventLog } from '../../common/domain-events.js';
import { ConflictError, ValidationError } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { importLightgbmModel, importXgboostModel, ModelImportError, type Model, type ImportSummary } from '../../ranker/index.js';
import type { ImportedModelInfo, RankerArtifact } from '../model/artifacts.js';
import type { ModelRecord } from '../model/model-types.js';
import type { ModelVersionStore } from './model-version.store.js';
import type { ModelImportBody } from './model.schemas.js';

/**
 * A ranker version from a model file trained elsewhere (XGBoost, LightGBM): parsed into our trees,
 * stored as a `searchloop.ranker` artifact with source `import` and no behaviour table, so it
 * scores the request's `features` by name like a dataset-trained ranker (ServingService.featureNeeds
 * reports them as required) and serves rank, aliases and experiments like any version.
 */
export async function importRankerVersion(
  deps: { versions: Pick<ModelVersionStore, 'insertImported'>; events?: DomainEventLog; now: number },
  model: ModelRecord,
  body: ModelImportBody,
): Promise<{ version: number; info: ImportedModelInfo; message: string; activated: boolean }> {
  if (model.type !== 'ranker') {
    throw new ConflictError(`model ${model.id} is a ${model.type}; only a ranker takes imported versions`);
  }
  if (model.status === 'archived') throw new ConflictError(`model ${model.id} is archived`);
  const { tree, summary } = parse(body);
  const renamed = body.featureNames !== undefined;
  const info: ImportedModelInfo = {
    format: summary.format,
    trees: summary.trees,
    features: tree.featureNames.length,
    objective: summary.sourceObjective,
    ...(renamed ? { sourceFeatureNames: summary.sourceFeatureNames } : {}),
    note: body.note ?? null,
  };
  const artifact: RankerArtifact = { format: 'searchloop.ranker', version: 1, source: 'import', model: tree, imported: info };
  const activated = body.activate ?? false;
  const size = `${plural(info.trees, 'tree')}, ${plural(info.features, 'feature')}`;
  const what = `imported from ${info.format} (${size}); no held-out metrics: trained elsewhere`;
  const message = activated ? what : `${what}; not activated (activate: false)`;
  const metrics = { source: 'import', imported: info };
  const { version, activeBefore } = await deps.versions.insertImported({
    modelId: model.id,
    importId: newId(),
    outcome: activated ? 'activated' : 'imported',
    message,
    metrics,
    counts: { trees: info.trees, features: info.features },
    artifact: JSON.stringify(artifact),
    createdAt: deps.now,
    modelMetrics: metrics,
    lastOutcome: { at: deps.now, outcome: activated ? 'activated' : 'imported', message },
  });
  const events = deps.events ?? SILENT_EVENTS;
  const name = `model "${model.id}"`;
  events.record(
    'model.imported',
    { modelId: model.id, version, format: info.format, trees: info.trees, features: info.features, activated },
    `${name} imported: v${version} from ${info.format} (${size}${info.note ? `: ${info.note}` : ''})`,
  );
  if (activated) {
    const replaces = activeBefore === null ? 'its first version' : `replaces v${activeBefore}`;
    events.record(
      'model.activated',
      { modelId: model.id, version, previousVersion: activeBefore },
      `${name} v${version} activated (${replaces})`,
    );
  }
  return { version, info, message, activated };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function parse(body: ModelImportBody): { tree: Model; summary: ImportSummary } {
  try {
    const options = { featureNames: body.featureNames };
    const { model, summary } =
      body.format === 'lightgbm-text' ? importLightgbmModel(body.model, options) : importXgboostModel(body.model, options);
    return { tree: model, summary };
  } catch (error) {
    if (error instanceof ModelImportError) throw ValidationError.field(`/${error.field}`, error.message);
    throw error;
  }
}
