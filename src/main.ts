import type { FastifyInstance } from 'fastify';
import { databaseOptions, type AppConfig } from './config.js';
import { buildApp } from './app.js';
import { systemClock } from './common/clock.js';
import { createContainer } from './container.js';
import { createLogger } from './observability/logger.js';
import { createScheduler } from './scheduler.js';
import { openDatabase, type DatabaseHandle } from './storage/database.js';
import { migrateToLatest } from './storage/migrator.js';

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  address: string;
  /**
   * Stops background tasks at their next batch boundary, stops accepting, lets in-flight requests
   * finish (up to the grace period), drains acknowledged writes, closes the database.
   */
  stop(): Promise<void>;
}

export async function startServer(config: AppConfig): Promise<RunningServer> {
  const database = await openDatabase(config.database, databaseOptions(config));
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  // One logger for requests and domain events, in LOG_FORMAT (readable on a terminal by default).
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  const container = createContainer(database, systemClock, {
    log,
    envApiKeys: config.apiKeys,
    feedbackRetentionDays: config.feedbackRetentionDays,
    analyticsFoldThread: config.analyticsFoldThread,
    analyticsFoldNice: config.analyticsFoldNice,
  });
  try {
    await container.auth.services.apiKeys.refresh();
    if (!container.auth.services.apiKeys.secured && !isLoopback(config.host) && !config.allowOpen) {
      throw new Error(
        `refusing to serve without API keys on ${config.host}: create one (searchloop keys create --name … --scope admin), set SEARCHLOOP_API_KEYS, or set SEARCHLOOP_ALLOW_OPEN=1`,
      );
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const app = await buildApp({ ...config, loggerInstance: log }, container);
  if (!container.auth.services.apiKeys.secured) {
    app.log.warn(
      'NO API KEYS CONFIGURED: every route is open to anyone who can reach this address. Create keys with `searchloop keys create`.',
    );
  }
  const scheduler = createScheduler(container.tasks, app.log, (name, run) => container.metrics.observeJob(name, run));
  // Fastify's own line (one per address bound), worded for a person reading the terminal.
  const address = await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (at) => `searchloop listening on ${at} (${config.database.kind})`,
  });
  scheduler.start();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const deadline = Date.now() + config.shutdownGraceMs;
      /** Waits for `work` until the grace period ends: true when it finished, false when time ran out. */
      const withinGrace = async (work: Promise<unknown>): Promise<boolean> => {
        let timer: NodeJS.Timeout | undefined;
        const over = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))));
        try {
          return await Promise.race([work.then(() => true as const), over]);
        } finally {
          clearTimeout(timer);
        }
      };
      const timer = setTimeout(() => {
        app.log.error(
          { graceMs: config.shutdownGraceMs },
          `grace period of ${config.shutdownGraceMs} ms over; closing remaining connections`,
        );
        app.server.closeAllConnections();
      }, config.shutdownGraceMs);
      timer.unref();
      try {
        // Background backlogs (analytics and attribution folds, …) are resumable: told to stop at
        // once, each ends at its next batch boundary and the rest is folded after the next start.
        // The grace period is for in-flight requests and the acknowledged writes container.close()
        // drains, not for a backlog that may take minutes.
        const background = scheduler.stop();
        await app.close();
        if (!(await withinGrace(background)))
          app.log.warn(
            'grace period over with a background task still running; closing (its open batch rolls back and is redone at the next start)',
          );
        // Write-behind queues (exposures) drain here; past the grace the database closes anyway, and
        // what is still queued is lost as on kill -9 (docs/api/experiments.md says what that costs).
        if (!(await withinGrace(container.close())))
          app.log.warn('grace period over with queued writes still draining; closing the database without them');
      } finally {
        clearTimeout(timer);
        await database.close();
      }
    })();
    return stopping;
  };
  return { app, database, address, stop };
}

/** Runs until SIGTERM or SIGINT, then shuts down gracefully and exits. */
export async function serveUntilSignalled(config: AppConfig): Promise<void> {
  const server = await startServer(config);
  const onSignal = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
