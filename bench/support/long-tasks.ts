/**
 * What held a server's event loop: the busy stretches of a V8 CPU profile (`node --cpu-prof`)
 * longer than a threshold, each with the code that ran in it. A request that arrives during such a
 * stretch waits for its end, so these stretches are what an open-loop p99 is made of; a profile's
 * totals (self time over the whole run) do not show them.
 */
import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface LongTask {
  startMs: number;
  durationMs: number;
  /** Where the stretch's samples entered project code (the outermost frame under dist/ or src/), by share. */
  entries: Array<[string, number]>;
  /** The functions that used the stretch's time themselves, by share. */
  self: Array<[string, number]>;
}

const IDLE = new Set(['(idle)']);

function frameName(frame: CallFrame): string {
  const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/(dist|src|node_modules)\//, '$1/');
  return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
}

function top(counts: Map<string, number>, total: number, n: number): Array<[string, number]> {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => [name, us / total]);
}

/** Busy stretches of at least `thresholdMs` in a profile file, in time order. */
export function longTasks(file: string, thresholdMs: number): LongTask[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const entryOf = new Map<number, string>();
  const entry = (id: number): string => {
    const known = entryOf.get(id);
    if (known !== undefined) return known;
    let outer = frameName(byId.get(id)!.callFrame);
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (/\/(dist|src)\//.test(frame.url) && !frame.url.includes('node_modules')) outer = frameName(frame);
    }
    entryOf.set(id, outer);
    return outer;
  };

  const tasks: LongTask[] = [];
  let t = 0;
  let spanStart = -1;
  let spanSamples: Array<[number, number]> = [];
  const close = (end: number) => {
    const duration = (end - spanStart) / 1000;
    if (spanStart >= 0 && duration >= thresholdMs) {
      const entries = new Map<string, number>();
      const self = new Map<string, number>();
      let total = 0;
      for (const [id, us] of spanSamples) {
        total += us;
        entries.set(entry(id), (entries.get(entry(id)) ?? 0) + us);
        const name = frameName(byId.get(id)!.callFrame);
        self.set(name, (self.get(name) ?? 0) + us);
      }
      tasks.push({ startMs: spanStart / 1000, durationMs: duration, entries: top(entries, total, 4), self: top(self, total, 4) });
    }
    spanStart = -1;
    spanSamples = [];
  };
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const busy = !IDLE.has(byId.get(id)!.callFrame.functionName);
    if (busy) {
      if (spanStart < 0) spanStart = t;
      spanSamples.push([id, delta]);
    } else if (spanStart >= 0) close(t);
    t += profile.timeDeltas[i] ?? 0;
  }
  close(t);
  return tasks;
}

/** Long stretches summed by where they entered project code: which jobs cost the tail. */
export function summarize(tasks: LongTask[]): Array<[string, number, number]> {
  const sum = new Map<string, [number, number]>();
  for (const task of tasks) {
    const [name] = task.entries[0] ?? ['?'];
    const [ms, n] = sum.get(name) ?? [0, 0];
    sum.set(name, [ms + task.durationMs, n + 1]);
  }
  return [...sum.entries()].map(([name, [ms, n]]) => [name, ms, n] as [string, number, number]).sort((a, b) => b[1] - a[1]);
}

if (process.argv[1] === import.meta.filename) {
  const [file, threshold = '4'] = process.argv.slice(2);
  if (!file) throw new Error('usage: long-tasks.ts <file.cpuprofile> [threshold ms]');
  const tasks = longTasks(file, Number(threshold));
  for (const task of tasks) {
    process.stdout.write(`${task.startMs.toFixed(0).padStart(7)} ms  ${task.durationMs.toFixed(1).padStart(6)} ms\n`);
    for (const [name, share] of task.entries) process.stdout.write(`    entry ${(share * 100).toFixed(0).padStart(3)} %  ${name}\n`);
    for (const [name, share] of task.self) process.stdout.write(`    self  ${(share * 100).toFixed(0).padStart(3)} %  ${name}\n`);
  }
  process.stdout.write('\nBy entry (stretch time, count):\n');
  for (const [name, ms, n] of summarize(tasks)) process.stdout.write(`${ms.toFixed(1).padStart(8)} ms ${String(n).padStart(4)}  ${name}\n`);
}
