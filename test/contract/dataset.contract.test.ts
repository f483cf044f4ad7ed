import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { learningWorld } from './support/learning-world.js';

const dataset = (modelId: string, content: string, uploadedAt: number) => ({
  modelId,
  format: 'letor' as const,
  content,
  bytes: Buffer.byteLength(content),
  rows: 2,
  queries: 2,
  features: 3,
  uploadedAt,
});

describeContract('DatasetStore', learningWorld, (world) => {
  it('keeps the latest upload per model, with or without its content', async () => {
    expect(await world().datasets.get('m1')).toBeUndefined();
    expect(await world().datasets.getInfo('m1')).toBeUndefined();
    await world().datasets.save(dataset('m1', '1 qid:1 1:0.5\n0 qid:2 2:1\n', 1000));
    const replaced = dataset('m1', '2 qid:7 3:0.25\n0 qid:8 1:1\n', 2000);
    await world().datasets.save(replaced);
    await world().datasets.save(dataset('m2', 'x', 3000));
    expect(await world().datasets.get('m1')).toEqual(replaced);
    const { content: _content, ...info } = replaced;
    expect(await world().datasets.getInfo('m1')).toEqual(info);
  });
});
