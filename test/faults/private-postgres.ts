import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/ports.js';

/** The newest Debian PostgreSQL server binaries (initdb, pg_ctl), or undefined. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')) && fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/**
 * A throwaway PostgreSQL cluster on its own port and socket directory, so a test can stop and
 * start it without touching the machine's shared server. As root the binaries run as the
 * `postgres` OS user (initdb refuses root); otherwise as the current user.
 */
export class PrivatePostgres {
  private constructor(
    readonly bin: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  static async create(bin: string): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-pg-'));
    const cluster = new PrivatePostgres(bin, dir, await freePort());
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      fs.chownSync(dir, uid, gid);
    }
    cluster.run('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    cluster.start();
    return cluster;
  }

  private run(tool: string, args: string[]): string {
    const exe = path.join(this.bin, tool);
    const asRoot = process.getuid?.() === 0;
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
    try {
      return execFileSync(cmd, argv, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 }).toString();
    } catch (error) {
      const e = error as { stderr?: Buffer; stdout?: Buffer; message: string };
      throw new Error(
        `${tool} ${args.join(' ')} failed: ${e.message}\n${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}${this.serverLog()}`,
        { cause: error },
      );
    }
  }

  serverLog(): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'server.log'), 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '';
    }
  }

  /** Starts the server and waits until it accepts connections. */
  start(): void {
    this.run('pg_ctl', [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
    ]);
  }

  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash. */
  stopImmediate(): void {
    this.run('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', this.dataDir]);
  }

  /** The postmaster and its children (backends, checkpointer, …): this cluster's processes only. */
  private processes(): number[] {
    const postmaster = Number(fs.readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = fs
      .readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  }

  private frozen: number[] = [];

  /** SIGSTOP every process of the cluster: connections stay open and nothing answers. */
  freeze(): void {
    this.frozen = this.processes();
    for (const pid of this.frozen) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
    this.frozen = [];
  }

  /** Stops the server if it runs and removes every file. */
  destroy(): void {
    this.thaw();
    try {
      this.stopImmediate();
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
