import fs from 'node:fs';
import { ApiClient } from './api-client.js';
import { evaluateRanker, type NdcgReport } from './evaluate.js';
import {
  probeCapabilities,
  readResults,
  startExperiments,
  stopEarlierDemoExperiments,
  type Capabilities,
  type DemoExperiment,
  type ExperimentReport,
} from './experiments.js';
import { CLICKS_RANKER_ID, queueRanker, RANKER_ID, trainDefaultClickModel, waitForRanker, type ModelView } from './models.js';
import { formatPredictions, importWorseRanker, predictOffline, WORSE_RANKER_ID, type OfflinePrediction } from './offline.js';
import type { DemoOptions } from './options.js';
import { formatProgress, formatSummary } from './report.js';
import { formatShipOutcome, nextSteps, shipWinner, type ShipOutcome } from './ship.js';
import { startChildServer, type ChildServer } from './server-process.js';
import { chooseTarget } from './target.js';
import { Traffic } from './traffic.js';
import { buildCatalogue } from './world/catalogue.js';
import { simulatedClock } from './world/sim-clock.js';

export interface DemoIo {
  /** A line of output. */
  print(line: string): void;
  /** The progress line, rewritten in place on a terminal. */
  progress(line: string): void;
  /** The command that runs `searchloop` (the demo appends `serve`), when the demo starts the service. */
  serverCommand?: string[];
  /** The environment that service starts from. */
  serverEnvironment?: NodeJS.ProcessEnv;
  /** Resolves when the user interrupts (Ctrl-C). */
  interrupted?: Promise<void>;
}

export interface DemoSummary {
  url: string;
  seed: number;
  wallSeconds: number;
  speed: number;
  capabilities: Capabilities;
  sessions: number;
  searches: number;
  clicks: number;
  feedbackItems: number;
  failedSessions: number;
  requests: number;
  throttled: number;
  failedRequests: number;
  sessionsPerSecond: number;
  requestsPerSecond: number;
  lastError?: string;
  clickModel?: ModelView;
  ranker?: ModelView;
  ndcg?: NdcgReport;
  /** demo-ranker-clicks: trained on the clicks themselves (trainingData "clicks"), and its true NDCG. */
  clicksRanker?: ModelView;
  clicksNdcg?: NdcgReport;
  /** The learned ranker and a deliberately worse one, predicted from the logs before the online test. */
  predictions: OfflinePrediction[];
  experiments: ExperimentReport[];
  /** What --ship did: concluded and shipped, or why not. */
  ship?: ShipOutcome;
  phases: { name: string; atSeconds: number }[];
}

type Phase =
  | 'warming up'
  | 'training default'
  | 'training ranker'
  | 'evaluating'
  | 'predicting offline'
  | 'training clicks ranker'
  | 'starting experiments'
  | 'experimenting'
  | 'failed';

/**
 * The demo world: traffic in the engine's order, then the click model and a ranker trained from
 * it, then the ranker tested against the engine's order, while traffic keeps flowing. Everything
 * goes through the public HTTP API, to a service it starts or one given by --url.
 */
export async function runDemo(options: DemoOptions, io: DemoIo): Promise<DemoSummary> {
  const target = await chooseTarget(options, io.serverEnvironment);
  const dashboard = target.url;
  io.print(`Dashboard: ${dashboard}`);
  for (const line of target.notice) io.print(line);
  let child: ChildServer | undefined;
  if (target.kind === 'own') {
    if (!io.serverCommand) throw new Error('no --url and no way to start the service');
    io.print(`starting the service on ${options.database} (logs beside it)…`);
    child = await startChildServer({
      command: io.serverCommand,
      env: io.serverEnvironment,
      databaseFile: options.database,
      port: target.port,
    });
  }
  const api = new ApiClient(child?.url ?? options.url ?? dashboard, options.key);
  const wallStart = Date.now();
  const seconds = () => (Date.now() - wallStart) / 1000;
  const phases: DemoSummary['phases'] = [];
  let phase: Phase = 'warming up';
  const enter = (next: Phase) => {
    phase = next;
    phases.push({ name: next, atSeconds: Math.round(seconds()) });
  };
  enter('warming up');

  const system = await api.get<{ version: string; database: string }>('/api/system');
  const capabilities = await probeCapabilities(api);
  io.print(
    `searchloop ${system.version} on ${system.database}; ${capabilities.nousRank ? 'POST /api/nous/rank' : 'assign + model rank route'}` +
      `${capabilities.interleaving ? ' and interleaving' : ''} available`,
  );
  const stopped = await stopEarlierDemoExperiments(api);
  if (stopped) io.print(`stopped ${stopped} running experiment(s) of an earlier demo run`);

  const catalogue = buildCatalogue({ seed: options.seed, queries: options.queries, docsPerQuery: 20 });
  const tag = `seed ${options.seed}, ${new Date(wallStart).toISOString().slice(0, 16)}Z`;
  const now = simulatedClock(wallStart, options.days, options.speed);
  const traffic = new Traffic(api, catalogue, {
    seed: options.seed,
    rate: options.rate,
    maxInFlight: Math.max(8, Math.ceil(options.rate)),
    simulatedNow: () => now(Date.now()),
    idPrefix: `demo-${options.seed}-${wallStart.toString(36)}`,
  });
  const summary: DemoSummary = {
    url: dashboard,
    seed: options.seed,
    wallSeconds: 0,
    speed: options.speed,
    capabilities,
    sessions: 0,
    searches: 0,
    clicks: 0,
    feedbackItems: 0,
    failedSessions: 0,
    requests: 0,
    throttled: 0,
    failedRequests: 0,
    sessionsPerSecond: 0,
    requestsPerSecond: 0,
    predictions: [],
    experiments: [],
    phases,
  };
  let experiments: DemoExperiment[] = [];
  const showProgress = () =>
    io.progress(
      formatProgress({
        seconds: seconds(),
        rate: traffic.currentRate(),
        phase,
        stats: traffic.stats,
        api: api.counters,
        simNow: now(Date.now()),
        experiments,
      }),
    );
  traffic.start();
  const ticker = setInterval(showProgress, 1000);

  const loop = (async () => {
    while (traffic.stats.sessions < options.warmup) await sleep(250);
    enter('training default');
    summary.clickModel = await trainDefaultClickModel(api);
    enter('training ranker');
    let clicksRun: Promise<ModelView | Error> | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const run = await queueRanker(api, RANKER_ID, options.seed);
      // Queued right behind demo-ranker (the service trains one at a time), so both learn from
      // nearly the same window; it trains while the demo evaluates and predicts.
      clicksRun ??= queueRanker(api, CLICKS_RANKER_ID, options.seed)
        .then((queued) => waitForRanker(api, queued, CLICKS_RANKER_TIMEOUT_MS))
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      summary.ranker = await waitForRanker(api, run);
      if (summary.ranker.activeVersion !== null || attempt === 3) break;
      await sleep(10_000); // more feedback, then again
    }
    if (summary.ranker.activeVersion === null) throw new Error(`the ranker did not train: ${summary.ranker.error ?? 'no version'}`);
    // Feedback stamped from here on arrives after the ranker learned: the window it is predicted on.
    const heldOut = { from: now(Date.now()), sessions: traffic.stats.sessions };
    enter('evaluating');
    summary.ndcg = await evaluateRanker(api, catalogue, RANKER_ID);
    enter('predicting offline');
    try {
      await importWorseRanker(api);
      // Predicted on clicks the ranker never learned from (on its own training clicks it would look
      // better than it is, and the service would say so): wait for enough of them.
      const deadline = Date.now() + HELD_OUT_MAX_WAIT_MS;
      const wanted = heldOut.sessions + Math.round(HELD_OUT_SHARE * options.warmup);
      while (traffic.stats.sessions < wanted && Date.now() < deadline) await sleep(250);
      // Up to the demo's present: a later run of the same window reads the same searches.
      const window = { from: heldOut.from, to: now(Date.now()) + 1 };
      summary.predictions = await predictOffline(api, [RANKER_ID, WORSE_RANKER_ID], window);
      for (const line of formatPredictions(summary.predictions)) io.print(`\n${line}`);
    } catch (error) {
      // A service without offline evaluation (an older one behind --url) still runs the experiments.
      io.print(`\npredicting offline failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    enter('training clicks ranker');
    const clicks = (await clicksRun) ?? new Error('not queued');
    if (clicks instanceof Error) io.print(`\n${CLICKS_RANKER_ID} did not train: ${clicks.message}; no head-to-head.`);
    else {
      summary.clicksRanker = clicks;
      if (clicks.activeVersion !== null) summary.clicksNdcg = await evaluateRanker(api, catalogue, CLICKS_RANKER_ID);
    }
    enter('starting experiments');
    const headToHead = typeof summary.clicksRanker?.activeVersion === 'number';
    const started = await startExperiments(api, capabilities, tag, { headToHead });
    experiments = started.experiments;
    traffic.ranking = started.ranking;
    enter('experimenting');
  })().catch((error: unknown) => {
    enter('failed');
    summary.lastError = error instanceof Error ? error.message : String(error);
    io.print(`\n${summary.lastError}`);
  });

  const end = options.duration > 0 ? sleep(options.duration * 1000) : new Promise<void>(() => {});
  await Promise.race([end, io.interrupted ?? new Promise<void>(() => {})]);
  clearInterval(ticker);
  await traffic.stop();
  showProgress();
  io.print('');
  // A run shorter than the training steps still reports what exists.
  await Promise.race([loop, sleep(1000)]);

  for (const experiment of experiments) {
    try {
      summary.experiments.push(await readResults(api, experiment));
    } catch (error) {
      io.print(`results of ${experiment.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const elapsed = seconds();
  Object.assign(summary, {
    wallSeconds: Math.round(elapsed),
    sessions: traffic.stats.sessions,
    searches: traffic.stats.searches,
    clicks: traffic.stats.clicks,
    feedbackItems: traffic.stats.feedbackItems,
    failedSessions: traffic.stats.failedSessions,
    requests: api.counters.requests,
    throttled: api.counters.throttled,
    failedRequests: api.counters.failed,
    sessionsPerSecond: traffic.stats.sessions / elapsed,
    requestsPerSecond: api.counters.requests / elapsed,
    lastError: summary.lastError ?? traffic.stats.lastError,
  });
  for (const line of formatSummary(summary)) io.print(line);
  const ab = summary.experiments.find((e) => e.type === 'ab');
  if (ab && options.ship) {
    try {
      summary.ship = await shipWinner(api, ab);
      for (const line of formatShipOutcome(summary.ship)) io.print(line);
    } catch (error) {
      io.print(`--ship: concluding ${ab.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (ab) for (const line of nextSteps(dashboard, ab)) io.print(line);
  if (options.json) fs.writeFileSync(options.json, JSON.stringify(summary, null, 2));

  if (child) {
    if (!options.exit && io.interrupted) {
      io.print(`\nThe service keeps running for the dashboard at ${dashboard} — Ctrl-C to stop it.`);
      await io.interrupted;
    }
    await child.stop();
  }
  return summary;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sessions logged after the ranker trained before the demo predicts on them (a share of --warmup: 600 by default), and the longest it waits for them. */
const HELD_OUT_SHARE = 0.5;
const HELD_OUT_MAX_WAIT_MS = 45_000;
/** How long the demo waits for demo-ranker-clicks, queued behind demo-ranker. */
const CLICKS_RANKER_TIMEOUT_MS = 240_000;
