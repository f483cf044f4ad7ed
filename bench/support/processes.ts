import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a server in its own process (so the load generator does not share its event loop) and waits for /healthz. */
export async function startProcess(command: string, args: string[], env: Record<string, string>, port: number): Promise<ServerProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i += 1) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
    await sleep(100);
  }
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** A bench script (a bare ceiling route, path from bench/) run under tsx in its own process on a free port. */
export async function startBenchServer(file: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const script = path.join(import.meta.dirname, '..', file);
  return startProcess(process.execPath, ['--import', 'tsx', script], env, await freePort());
}

export function machineLine(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/**
 * CPU milliseconds the event loop's own thread has used (Linux: utime + stime of the thread whose
 * id is the process id, in clock ticks of 10 ms), without the process's other threads; NaN elsewhere.
 */
export function eventLoopCpuMs(): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** A TCP port nothing listens on now (the kernel's pick), so benches run beside other helpers' benches. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Waits until a server process is quiet (under 5 % of a core for a second, e.g. its background
 * folds of the last load are done) or `maxSeconds` passed, so one case's leftovers are not
 * charged to the next. Answers the seconds waited.
 */
export async function waitQuiet(pid: number, maxSeconds = 30): Promise<number> {
  const cpu = () => {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  const start = Date.now();
  try {
    while (Date.now() - start < maxSeconds * 1000) {
      const before = cpu();
      await sleep(1000);
      if (cpu() - before < 0.05) break;
    }
  } catch {
    // the process is gone: nothing to wait for
  }
  return (Date.now() - start) / 1000;
}
