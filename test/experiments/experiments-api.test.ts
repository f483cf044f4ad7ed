import { expect, it } from 'vitest';
import { expectError, getJson, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const URL = '/api/nous/ab-testing/experiments';
let counter = 0;
const uniqueName = () => `experiment-${(counter += 1)}`;

const seedExperiment = () => ({
  name: uniqueName(),
  description: 'Grid layout against list layout',
  startDate: '2026-12-01T00:00:00Z',
  endDate: '2026-12-15T00:00:00Z',
  configuration: {
    variants: [
      { id: 'control', name: 'List', weight: 0.5, config: { layout: 'list', pageSize: 10 } },
      { id: 'treatment', name: 'Grid', weight: 0.5, config: { layout: 'grid', pageSize: 24, badges: true } },
    ],
    trafficAllocation: 0.8,
    targetMetrics: ['ctr', 'mrr'],
  },
});

type Body = ReturnType<typeof seedExperiment>;
const edit = (f: (b: Body) => unknown) => {
  const b = seedExperiment();
  return (f(b) ?? b) as unknown;
};

const badBodies: [string, unknown, string][] = [
  ['name missing', edit((b) => ({ ...b, name: undefined })), '/name'],
  ['name empty', edit((b) => ({ ...b, name: '' })), '/name'],
  ['configuration missing', edit((b) => ({ name: b.name })), '/configuration'],
  ['variants missing', edit((b) => ({ ...b, configuration: { trafficAllocation: 1 } })), '/configuration/variants'],
  ['one variant', edit((b) => void b.configuration.variants.pop()), '/configuration/variants'],
  ['duplicate variant id', edit((b) => void (b.configuration.variants[1]!.id = 'control')), '/configuration/variants/1/id'],
  ['weight above 1', edit((b) => void (b.configuration.variants[0]!.weight = 1.5)), '/configuration/variants/0/weight'],
  ['weight below 0', edit((b) => void (b.configuration.variants[1]!.weight = -0.1)), '/configuration/variants/1/weight'],
  ['weights summing to 0.9', edit((b) => void (b.configuration.variants[1]!.weight = 0.4)), '/configuration/variants'],
  ['weights summing to 1 + 1e-5', edit((b) => void (b.configuration.variants[1]!.weight = 0.50001)), '/configuration/variants'],
  [
    'only some weights given',
    edit((b) => void delete (b.configuration.variants[1] as { weight?: number }).weight),
    '/configuration/variants/1/weight',
  ],
  ['trafficAllocation 0', edit((b) => void (b.configuration.trafficAllocation = 0)), '/configuration/trafficAllocation'],
  ['trafficAllocation above 1', edit((b) => void (b.configuration.trafficAllocation = 1.01)), '/configuration/trafficAllocation'],
  ['endDate before startDate', edit((b) => void (b.endDate = '2026-11-30T00:00:00Z')), '/endDate'],
  ['endDate equal to startDate', edit((b) => void (b.endDate = b.startDate)), '/endDate'],
  ['startDate not a date-time', edit((b) => void (b.startDate = '2026-12-01')), '/startDate'],
  ['empty target metric', edit((b) => void (b.configuration.targetMetrics = [''])), '/configuration/targetMetrics/0'],
  ['unknown target metric', edit((b) => void (b.configuration.targetMetrics = ['ctr', 'revenue'])), '/configuration/targetMetrics/1'],
  ['empty target metric list', edit((b) => void (b.configuration.targetMetrics = [])), '/configuration/targetMetrics'],
  ['repeated target metric', edit((b) => void (b.configuration.targetMetrics = ['ctr', 'ctr'])), '/configuration/targetMetrics/1'],
  ['unknown configuration key', edit((b) => void ((b.configuration as Record<string, unknown>).budget = 1)), '/configuration/budget'],
  [
    'variant config not an object',
    edit((b) => void ((b.configuration.variants[0] as Record<string, unknown>).config = 'grid')),
    '/configuration/variants/0/config',
  ],
];

describeOnEveryDatabase('experiments API', (kind) => {
  const t = useTestApp(kind);

  it('201 with experimentId, status created and the variants echoed; stored with every field', async () => {
    const body = seedExperiment();
    const res = await postJson(t.app, URL, body);
    expect(res.statusCode).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.status).toBe('created');
    expect(res.body.data.variants).toEqual(body.configuration.variants);
    const back = await getJson(t.app, `${URL}/${res.body.data.experimentId}`);
    expect(back.statusCode).toBe(200);
    expect(back.body.data).toMatchObject({
      name: body.name,
      description: body.description,
      startDate: '2026-12-01T00:00:00.000Z',
      endDate: '2026-12-15T00:00:00.000Z',
      configuration: { trafficAllocation: 0.8, targetMetrics: ['ctr', 'mrr'], variants: body.configuration.variants },
    });
  });

  it('defaults: equal weights, names from ids, allocation 1, targetMetrics [ctr]', async () => {
    const res = await postJson(t.app, URL, { name: uniqueName(), configuration: { variants: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } });
    expect(res.statusCode).toBe(201);
    expect(res.body.data.variants.map((v: { weight: number }) => v.weight)).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(res.body.data.variants[2]).toEqual({ id: 'c', name: 'c', weight: 1 / 3, config: {} });
    expect(res.body.data.configuration).toMatchObject({ trafficAllocation: 1, targetMetrics: ['ctr'] });
  });

  it.each(badBodies)('400 when %s', async (_name, body, path) => {
    expectError(await postJson(t.app, URL, body), 400, 'VALIDATION_ERROR', path);
  });

  it('409 for a duplicate name', async () => {
    const body = seedExperiment();
    expect((await postJson(t.app, URL, body)).statusCode).toBe(201);
    expectError(await postJson(t.app, URL, body), 409, 'CONFLICT', '/name');
  });

  it('404 for an unknown experiment', async () => {
    expectError(await getJson(t.app, `${URL}/nope`), 404, 'NOT_FOUND');
  });

  it('lists newest first with a status filter and cursor pagination', async () => {
    for (let i = 0; i < 5; i += 1) await postJson(t.app, URL, seedExperiment());
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await getJson(t.app, `${URL}?status=created&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      all.push(...res.body.data.items.map((e: { experimentId: string }) => e.experimentId));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect([...all].sort().reverse()).toEqual(all);
    expect((await getJson(t.app, `${URL}?status=running`)).body.data.items).toEqual([]);
    expectError(await getJson(t.app, `${URL}?status=flying`), 400, 'VALIDATION_ERROR', '/status');
  });
});
