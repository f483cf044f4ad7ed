/**
 * bench/assign/profile-top: the top self-time functions and the top packages/files of a
 * `node --cpu-prof` profile (as bench/assign/cpu.ts writes with PROFILE=<dir>).
 *
 *   npm run bench:profile-top -- <file.cpuprofile> [top=25]
 *
 * FROM_S=<seconds>: count only samples taken that long after the profile began (skips start-up and
 * warm-up, which in a short load run would fill the top ten). BUSY=1: percentages of the thread's
 * busy time (idle left out), the share of the work a change can take away.
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file!, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
};
const top = Number(topArg ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
const fromUs = Number(process.env.FROM_S ?? 0) * 1e6;
const busyOnly = process.env.BUSY === '1';
let at = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at < fromUs) return;
  if (busyOnly && profile.nodes.find((n) => n.id === id)?.callFrame.functionName === '(idle)') return;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function where(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  const d = /\/dist\/(.*)$/.exec(url);
  if (d) return d[1]!;
  return url.startsWith('node:') ? url : url ? 'other' : '(native/vm)';
}

const fns = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${where(f.url)}:${f.lineNumber + 1}`;
  fns.set(name, (fns.get(name) ?? 0) + t);
  files.set(where(f.url), (files.get(where(f.url)) ?? 0) + t);
}
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print('self time by function', fns);
print('self time by package / file', files);

// Inclusive time per function (a recursive function's subtree counted once).
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + t);
  }
}
print('inclusive time by function', inclusive);
