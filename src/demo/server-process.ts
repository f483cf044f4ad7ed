import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface ChildServer {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts the service as a child process (`command` runs `searchloop serve`) on its own SQLite
 * file, logging to a file beside it, and waits until /readyz answers.
 */
export async function startChildServer(options: {
  command: string[];
  databaseFile: string;
  port: number;
  /** The environment the service starts from (the CLI passes its own); DATABASE_URL, PORT, HOST and LOG_LEVEL are set over it. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<ChildServer> {
  const url = `http://127.0.0.1:${options.port}/`;
  if (await answers(url)) {
    throw new Error(`something already answers at ${url}: drive it with --url ${url} (and --key), or pick another --port`);
  }
  fs.mkdirSync(path.dirname(options.databaseFile), { recursive: true });
  const logFile = options.databaseFile.replace(/\.db$/, '') + '-server.log';
  const log = fs.openSync(logFile, 'a');
  const [executable, ...args] = options.command;
  const child: ChildProcess = spawn(executable!, [...args, 'serve'], {
    env: {
      ...options.env,
      DATABASE_URL: `sqlite:${options.databaseFile}`,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!(await answers(`${url}readyz`))) {
    if (exited !== undefined) throw new Error(`the service exited with code ${exited} before it was ready; see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the service was not ready within ${options.timeoutMs ?? 60_000} ms; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    logFile,
    async stop() {
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      await exit;
    },
  };
}

/** True when `url` answers 2xx within a second. */
export async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
