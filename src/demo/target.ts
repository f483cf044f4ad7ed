import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { DemoOptions } from './options.js';
import { answers } from './server-process.js';

/** Where the demo sends its traffic: a service that already answers, or one it starts on its own file. */
export type DemoTarget = { kind: 'existing'; url: string; notice: string[] } | { kind: 'own'; port: number; url: string; notice: string[] };

/** The file `npm start` serves when DATABASE_URL is unset (src/config.ts): never emptied by --fresh. */
const SERVICE_DEFAULT_DATABASE = 'data/searchloop.db';

/**
 * Which service the demo drives, and what it tells the user first: that the run writes simulated
 * data into that service's database, and how to start over. `env` is the environment a service
 * started from this shell would use (its DATABASE_URL names a file --fresh must not empty).
 */
export async function chooseTarget(options: DemoOptions, env: NodeJS.ProcessEnv = {}): Promise<DemoTarget> {
  const startOver =
    'To start over: `searchloop demo --fresh` (an emptied ' +
    `${options.database} and a service of its own), or stop the service and delete its database with the -analytics file ` +
    'beside it (docs/demo.md, "Starting over").';
  if (options.url) {
    return {
      kind: 'existing',
      url: new URL('/', options.url).href,
      notice: [
        `The demo writes simulated feedback, models (default, demo-ranker, demo-ranker-clicks) and experiments into the database of ${options.url}.`,
      ],
    };
  }
  const local = `http://127.0.0.1:${options.port}/`;
  const busy = await answers(`${local}readyz`);
  if (busy && !options.fresh) {
    // `npm start` is already serving here: the demo drives it, as the README's five-minute tour says.
    return {
      kind: 'existing',
      url: local,
      notice: [
        `A service already answers at ${local}: the demo drives it and writes simulated feedback, models (default, demo-ranker, demo-ranker-clicks) ` +
          'and experiments into ITS database (the one `npm start` serves, ./data/searchloop.db unless DATABASE_URL says otherwise).',
        startOver,
      ],
    };
  }
  if (options.fresh) emptyDatabase(options.database, env);
  const port = busy ? await freePort() : options.port;
  return {
    kind: 'own',
    port,
    url: `http://127.0.0.1:${port}/`,
    notice: [
      options.fresh
        ? `Starting over: a service of the demo's own on an empty ${options.database}${busy ? ` (port ${options.port} is taken: on port ${port})` : ''}.`
        : `The demo starts a service of its own on ${options.database} and writes its simulated data there (kept between runs).`,
      ...(options.fresh ? [] : [startOver]),
    ],
  };
}

/** Deletes the demo's SQLite files (the database, its analytics file, their journals), refusing the file a service would use by default. */
function emptyDatabase(file: string, env: NodeJS.ProcessEnv): void {
  const resolved = path.resolve(file);
  const configured = env.DATABASE_URL?.startsWith('sqlite:') ? path.resolve(env.DATABASE_URL.slice('sqlite:'.length)) : undefined;
  if (resolved === path.resolve(SERVICE_DEFAULT_DATABASE) || resolved === configured) {
    throw new Error(`--fresh empties --database, and ${file} is the service's own database: pick another file (default data/demo.db)`);
  }
  // The service keeps its search analytics in `<file>-analytics` beside it (src/storage/sqlite): both go.
  for (const base of [resolved, `${resolved}-analytics`]) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${base}${suffix}`, { force: true });
  }
}

/** A port nothing listens on now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
