import { ConflictError } from '../../common/errors.js';
import { isRankingExperiment } from '../model/experiment-rules.js';
import type { ExperimentConfiguration, ExperimentRecord, ExperimentStore } from '../model/experiment.store.js';
import type { ModelCatalog } from '../ports/model-catalog.js';

/** Two experiments can share a unit unless they take disjoint slices of one layer. */
function canShareUnits(a: ExperimentConfiguration, b: ExperimentConfiguration): boolean {
  if (!a.layer || !b.layer || a.layer.id !== b.layer.id) return true;
  return a.layer.range[0] < b.layer.range[1] && b.layer.range[0] < a.layer.range[1];
}

/** The versions pinned at start, for the audit log: {variantId: {modelId, version}}. */
export function pinnedVersions(c: ExperimentConfiguration): Record<string, { modelId: string; version: number }> {
  return Object.fromEntries(
    c.variants.flatMap((v) =>
      v.model?.pinnedVersion !== undefined ? [[v.id, { modelId: v.model.modelId, version: v.model.pinnedVersion }]] : [],
    ),
  );
}

/** Each model-backed variant fixed to a version for the phase about to start: its own, or the active one now. */
export async function pinModels(
  catalog: Pick<ModelCatalog, 'resolveRankable'>,
  c: ExperimentConfiguration,
): Promise<ExperimentConfiguration> {
  if (!c.variants.some((v) => v.model)) return c;
  const variants = [];
  for (const [i, v] of c.variants.entries()) {
    if (!v.model) {
      variants.push(v);
      continue;
    }
    const check = await catalog.resolveRankable(v.model.modelId, v.model.version);
    const path = `/configuration/variants/${i}/model/${check.ok ? 'modelId' : check.field}`;
    if (!check.ok) throw new ConflictError(`variant ${v.id} cannot start: ${check.message}`, [{ path, message: check.message }]);
    const version = v.model.version ?? check.activeVersion;
    if (version === null) {
      const message = `model ${v.model.modelId} has no trained version yet; train it before starting`;
      throw new ConflictError(`variant ${v.id} cannot start: ${message}`, [{ path, message }]);
    }
    variants.push({ ...v, model: { ...v.model, pinnedVersion: version } });
  }
  return { ...c, variants };
}

/** At most one ranking experiment decides a query: refuse a second one that could share a unit with a running one. */
export async function checkOneRankingExperiment(store: Pick<ExperimentStore, 'listServing'>, e: ExperimentRecord): Promise<void> {
  if (!isRankingExperiment(e.configuration)) return;
  const others = (await store.listServing()).filter(
    (o) =>
      o.id !== e.id && o.status === 'running' && isRankingExperiment(o.configuration) && canShareUnits(o.configuration, e.configuration),
  );
  const other = others[0];
  if (other) {
    const message = `ranking experiment "${other.name}" (${other.id}) is running and could share units with this one; at most one ranking experiment decides a query (separate them with disjoint slices of one layer)`;
    throw new ConflictError(message, [{ path: '/configuration/layer', message }]);
  }
}
