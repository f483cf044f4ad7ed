import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from './ports.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `source` runs src/cli/cli.ts through tsx (no build needed); `built` runs dist/cli/cli.js, which
 * `npm run build:server` makes (the fault suite runs the build, as production does).
 */
export type CliFlavour = 'source' | 'built';

/** The command and arguments that run `searchloop <args>` from this checkout. */
export function cliCommand(cli: CliFlavour, ...args: string[]): [string, string[]] {
  const entry = cli === 'built' ? [path.join(REPO, 'dist/cli/cli.js')] : ['--import', 'tsx', path.join(REPO, 'src/cli/cli.ts')];
  return [process.execPath, [...entry, ...args]];
}

export interface LogLine {
  level?: number;
  msg?: string;
  reqId?: string;
  err?: { code?: string; message?: string; type?: string };
  [key: string]: unknown;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When it exited (ms since epoch). */
  at: number;
}

export interface ServiceOptions {
  cli?: CliFlavour;
  /** The environment of the service on top of PATH, HOST, PORT and LOG_LEVEL=warn (so DATABASE_URL goes here). */
  env?: Record<string, string>;
  /** A fixed port (to start a killed service again where its clients look); default a free one. */
  port?: number;
  /** The route polled until it answers 200. */
  readyPath?: '/healthz' | '/readyz';
  timeoutMs?: number;
}

/**
 * `searchloop serve` as a child process on 127.0.0.1, with only the environment it is given (not
 * the test runner's), its output kept line by line (JSON log lines parsed), waited for until it
 * answers. Stop it with stop() (SIGTERM, SIGKILL if it hangs) or kill it with killHard().
 */
export async function spawnService(options: ServiceOptions = {}): Promise<ServiceProcess> {
  const service = new ServiceProcess(options.port ?? (await freePort()), options.cli ?? 'source', options.env ?? {});
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service.hasExited) throw new Error(`service exited during start:\n${service.tail()}`);
    if ((await statusOf(`${service.url}${options.readyPath ?? '/healthz'}`)) === 200) return service;
    if (Date.now() > deadline) {
      await service.killHard();
      throw new Error(`service did not answer ${options.readyPath ?? '/healthz'} within ${timeoutMs} ms:\n${service.tail()}`);
    }
    await sleep(50);
  }
}

export class ServiceProcess {
  readonly lines: LogLine[] = [];
  readonly raw: string[] = [];
  readonly exited: Promise<ExitInfo>;
  private readonly child: ChildProcess;
  private exitInfo: ExitInfo | undefined;

  constructor(
    readonly port: number,
    cli: CliFlavour,
    env: Record<string, string>,
  ) {
    const [command, args] = cliCommand(cli, 'serve');
    this.child = spawn(command, args, {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.collect(this.child.stdout);
    this.collect(this.child.stderr);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitInfo = { code, signal, at: Date.now() };
        resolve(this.exitInfo);
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  kill(signal: NodeJS.Signals): void {
    if (!this.hasExited) this.child.kill(signal);
  }

  async killHard(): Promise<void> {
    this.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, then SIGKILL if it has not exited after `ms`. */
  async stop(ms = 20_000): Promise<void> {
    if (this.hasExited) return;
    this.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), ms);
    await this.exited;
    clearTimeout(timer);
  }

  /** The first log line matching `test`, waiting for it to come through the pipe (undefined after `ms`). */
  async waitForLine(test: (line: LogLine) => boolean, ms = 5000): Promise<LogLine | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.lines.find(test);
      if (found || Date.now() > deadline) return found;
      await sleep(20);
    }
  }

  tail(n = 40): string {
    return this.raw.slice(-n).join('\n');
  }

  private collect(stream: NodeJS.ReadableStream | null): void {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      rest += chunk;
      let nl: number;
      while ((nl = rest.indexOf('\n')) >= 0) {
        const line = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        this.raw.push(line);
        try {
          this.lines.push(JSON.parse(line) as LogLine);
        } catch {
          this.lines.push({ msg: line });
        }
      }
    });
  }
}

/** The status of one GET, or undefined when nothing answered within 2 s. No keep-alive: a socket held open would delay the service's own shutdown. */
function statusOf(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(undefined));
    });
    req.setTimeout(2000, () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}
