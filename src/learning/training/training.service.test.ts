import { describe, expect, it } from 'vitest';
import { createFakeLearningStores, createFakeModelService, createFakeTrainingService } from '../fake-learning.js';
import type { TrainingFeedbackRow } from './fake-training-data.store.js';
import type { TrainingInput, TrainingOutput } from './runs/protocol.js';
import type { TrainingRunner } from './training-pool.js';

const row = (id: string, eventTime: number): TrainingFeedbackRow => ({
  id,
  queryId: 'q',
  queryHash: 'h',
  resultId: 'd',
  position: 1,
  action: 'click',
  eventTime,
  rating: null,
  dwellTime: null,
  deviceType: null,
  searchType: null,
  language: null,
  category: null,
  viewportWidth: null,
  viewportHeight: null,
  extra: null,
});

function setup() {
  let now = Date.parse('2026-11-22T12:00:00Z');
  const clock = { now: () => now };
  const feedback = [row('a', now - 2000), row('b', now - 1000), row('old', now - 40 * 86_400_000)];
  const inputs: TrainingInput[] = [];
  const outputs: TrainingOutput[] = [];
  const runner: TrainingRunner = {
    run: async (input) => {
      inputs.push(input);
      return outputs.shift()!;
    },
    close: async () => undefined,
  };
  const stores = createFakeLearningStores({ feedback: () => feedback });
  const training = createFakeTrainingService({ clock, runner, options: { owner: 'test', pageSize: 1 }, stores });
  const registry = createFakeModelService({ clock, stores });
  return { data: stores.data, inputs, outputs, training, registry, advance: (ms: number) => (now += ms) };
}

const trained = (value: number, active: number | null): TrainingOutput => ({
  kind: 'trained',
  metrics: { logLikelihood: value },
  counts: { sessions: 2 },
  artifact: `{"v":${value}}`,
  comparison: { metric: 'logLikelihood', higherIsBetter: true, value, active },
});

describe('TrainingService (fake stores)', () => {
  it('reads the training window in pages, trains, and keeps a better version active but not a worse one', async () => {
    const t = setup();
    await t.registry.register({ modelId: 'm', name: 'm', type: 'click_model', config: { window: '30d' } });
    t.outputs.push(trained(-2, null));
    expect(await t.training.runUntilIdle()).toBe(1);
    expect(t.inputs[0]!.feedback!.queryId).toHaveLength(2);
    await expect(t.training.requestTraining('nope', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await t.training.requestTraining('m', {});
    await expect(t.training.requestTraining('m', {})).rejects.toMatchObject({ code: 'CONFLICT' });
    t.outputs.push(trained(-3, -2));
    await t.training.runUntilIdle();
    expect(t.inputs[1]!.activeArtifact).toBe('{"v":-2}');
    const model = await t.registry.get('m');
    expect(model).toMatchObject({ status: 'ready', activeVersion: 1, lastTraining: { outcome: 'rejected', version: 2 } });
  });

  it('fails a model whose window holds nothing to learn, unless it retrains on a schedule', async () => {
    const t = setup();
    await t.registry.register({ modelId: 'once', name: 'once', type: 'click_model' });
    await t.registry.register({ modelId: 'daily', name: 'daily', type: 'click_model', config: { retrainEvery: '24h' } });
    t.outputs.push({ kind: 'no-data', message: 'nothing', counts: {} }, { kind: 'no-data', message: 'nothing', counts: {} });
    await t.training.runUntilIdle();
    expect(await t.registry.get('once')).toMatchObject({ status: 'failed', error: 'nothing' });
    expect(await t.registry.get('daily')).toMatchObject({ status: 'pending', lastTraining: { outcome: 'skipped' } });
    expect(await t.training.scheduleDue()).toBe(0);
    t.advance(61_000);
    expect(await t.training.scheduleDue()).toBe(1);
  });

  it('refuses to train a dataset ranker before its upload', async () => {
    const t = setup();
    await t.registry.register({ modelId: 'r', name: 'r', type: 'ranker', config: { trainingData: 'dataset' } });
    await expect(t.training.requestTraining('r', {})).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
