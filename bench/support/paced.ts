/**
 * The load generator's client. Closed loop (no overallRate): every connection sends its next
 * request as soon as its answer is in, latency from sending. Open loop: an HTTP/1.1 load at a fixed rate: request i is due at start + i / rate (evenly spaced,
 * or Poisson arrivals with ARRIVALS=poisson), sent on a free keep-alive connection, and its
 * latency is counted from when it was DUE, not from when a connection was free to send it, so a
 * slow server cannot slow the load down and hide its own queue (coordinated omission).
 * Autocannon's overallRate is not used for this: it lets each connection send its share at the
 * start of every second, a burst of the whole second's requests at once.
 * A minimal client (Content-Length framing only; Fastify never chunks a JSON answer), cheap enough
 * that the load costs the shared cores little: autocannon's per-request id replacement
 * (idReplacement) re-renders the whole request and, with a 45 KB rank body, capped the load at
 * 40 % of what this client offers on the same server.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { LoadOptions, LoadResult } from './load.js';

interface Conn {
  socket: net.Socket;
  due: number;
  buffered: Buffer[];
  length: number;
}

export async function pacedLoad(options: LoadOptions): Promise<LoadResult> {
  const rate = options.overallRate;
  const url = new URL(options.url);
  const parts = (options.body ?? '').split('[<id>]');
  const headers = { 'content-type': 'application/json', ...options.headers };
  const head = (length: number) =>
    `${options.method ?? 'POST'} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}content-length: ${length}\r\nconnection: keep-alive\r\n\r\n`;
  const staticRequest = parts.length === 1 ? Buffer.from(head(Buffer.byteLength(parts[0]!)) + parts[0]) : undefined;
  const request = (): Buffer => {
    if (staticRequest) return staticRequest;
    const body = parts.join(randomUUID());
    return Buffer.from(head(Buffer.byteLength(body)) + body);
  };

  const latencies: number[] = [];
  let end = Infinity;
  let errors = 0;
  let non2xx = 0;
  let inFlight = 0;
  const free: Conn[] = [];
  const backlog: number[] = [];
  const send = (c: Conn, due: number) => {
    c.due = due;
    inFlight += 1;
    c.socket.write(request());
  };
  const finish = (c: Conn, status: number) => {
    latencies.push(performance.now() - c.due);
    if (status < 200 || status >= 300) non2xx += 1;
    inFlight -= 1;
    if (rate === undefined) {
      // Closed loop: the next request goes as soon as this answer is in.
      if (performance.now() < end) send(c, performance.now());
      return;
    }
    const next = backlog.shift();
    if (next === undefined) free.push(c);
    else send(c, next);
  };
  const connect = () =>
    new Promise<Conn>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => resolve(c));
      socket.setNoDelay(true);
      const c: Conn = { socket, due: 0, buffered: [], length: 0 };
      socket.once('error', (e) => {
        if (c.due === 0) reject(e);
        errors += 1;
      });
      socket.on('data', (chunk: Buffer) => {
        c.buffered.push(chunk);
        c.length += chunk.length;
        const all = c.buffered.length === 1 ? c.buffered[0]! : Buffer.concat(c.buffered);
        const end = all.indexOf('\r\n\r\n');
        if (end < 0) return;
        const text = all.subarray(0, end).toString('latin1');
        const match = /content-length: *(\d+)/i.exec(text);
        const total = end + 4 + Number(match?.[1] ?? 0);
        if (all.length < total) {
          c.buffered = [all];
          return;
        }
        c.buffered = [];
        c.length = 0;
        finish(c, Number(text.slice(9, 12)));
      });
    });
  const conns = await Promise.all(Array.from({ length: options.connections }, connect));
  free.push(...conns);

  const poisson = process.env.ARRIVALS === 'poisson';
  const start = performance.now();
  end = start + options.durationSeconds * 1000;
  let nextDue = start;
  let offered = 0;
  if (rate === undefined) {
    for (const c of free.splice(0)) send(c, start);
    await new Promise((resolve) => setTimeout(resolve, options.durationSeconds * 1000));
  } else
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        while (nextDue <= now && nextDue < end) {
          offered += 1;
          const c = free.pop();
          if (c) send(c, nextDue);
          else backlog.push(nextDue);
          nextDue += poisson ? -Math.log(1 - Math.random()) * (1000 / rate) : 1000 / rate;
        }
        if (nextDue >= end) resolve();
        else setTimeout(tick, Math.max(0, Math.min(1, nextDue - performance.now())));
      };
      tick();
    });
  // Let the answers still owed arrive (up to 10 s); what never arrives is an error.
  const deadline = performance.now() + 10_000;
  while ((inFlight > 0 || backlog.length > 0) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  errors += inFlight + backlog.length;
  for (const c of conns) c.socket.destroy();

  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies.length ? Number(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(2)) : NaN;
  return {
    requests: latencies.length,
    rps: latencies.length / options.durationSeconds,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: latencies.length ? Number(latencies[latencies.length - 1]!.toFixed(2)) : NaN,
    errors,
    non2xx,
    ...(rate === undefined ? {} : { offered }),
  };
}
