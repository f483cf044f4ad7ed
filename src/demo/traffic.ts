import type { ApiClient } from './api-client.js';
import { engineRanking, type Ranking } from './ranking.js';
import type { Catalogue } from './world/catalogue.js';
import { planSession, searchFeedback, type FeedbackItem } from './world/session.js';
import { simulateSearch } from './world/users.js';

export interface TrafficOptions {
  seed: number;
  /** Sessions started per wall-clock second. */
  rate: number;
  /** Sessions in flight at most (beyond it the loop falls behind and the measured rate says so). */
  maxInFlight: number;
  /** Event time of a session started now (compressed time). */
  simulatedNow: () => number;
  idPrefix: string;
}

export interface TrafficStats {
  sessions: number;
  searches: number;
  clicks: number;
  feedbackItems: number;
  failedSessions: number;
  /** Sessions per arm of the ranking they were in (A/B variant, interleaved…). */
  arms: Record<string, number>;
  lastError?: string;
}

/**
 * Keeps users arriving at `rate` sessions a second: each session is planned from its own seed,
 * shown what the current ranking decides, simulated, and sent as one feedback submission.
 */
export class Traffic {
  readonly stats: TrafficStats = { sessions: 0, searches: 0, clicks: 0, feedbackItems: 0, failedSessions: 0, arms: {} };
  ranking: Ranking = engineRanking;
  private started = 0;
  private inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private readonly rateWindow: { at: number; sessions: number }[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly catalogue: Catalogue,
    private readonly options: TrafficOptions,
  ) {}

  start(now = Date.now()): void {
    this.startedAt = now;
    this.timer = setInterval(() => this.tick(), 50);
  }

  /** Stops starting sessions and waits for those in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all([...this.inFlight]);
  }

  /** Completed sessions per second over the last 10 s. */
  currentRate(now = Date.now()): number {
    this.rateWindow.push({ at: now, sessions: this.stats.sessions });
    while (this.rateWindow.length > 1 && now - this.rateWindow[0]!.at > 10_000) this.rateWindow.shift();
    const first = this.rateWindow[0]!;
    return now > first.at ? ((this.stats.sessions - first.sessions) * 1000) / (now - first.at) : 0;
  }

  private tick(): void {
    const due = Math.floor(((Date.now() - this.startedAt) / 1000) * this.options.rate);
    while (this.started < due && this.inFlight.size < this.options.maxInFlight) {
      const index = this.started;
      this.started += 1;
      const run = this.runSession(index).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }
    // Behind by more than a second of traffic: let the schedule slip rather than burst later
    // (session indices stay contiguous, so a seed gives the same users).
    const behind = due - this.started - this.options.rate;
    if (behind > 0) this.startedAt += (behind / this.options.rate) * 1000;
  }

  private async runSession(index: number): Promise<void> {
    const session = planSession(this.catalogue, this.options.seed, index, this.options.idPrefix);
    const startMs = this.options.simulatedNow();
    try {
      const state = await this.ranking.enter(session);
      const items: FeedbackItem[] = [];
      let clicks = 0;
      for (const search of session.searches) {
        const shown = await state.order(search);
        const simulated = simulateSearch(shown, session.rng);
        clicks += simulated.length;
        items.push(...searchFeedback(search, shown, simulated, startMs + search.offsetMs, session.deviceType));
      }
      await this.api.post('/api/cortex/feedback', { sessionId: session.sessionId, feedback: items });
      this.stats.sessions += 1;
      this.stats.searches += session.searches.length;
      this.stats.clicks += clicks;
      this.stats.feedbackItems += items.length;
      const arm = state.arm ?? 'engine';
      this.stats.arms[arm] = (this.stats.arms[arm] ?? 0) + 1;
    } catch (error) {
      this.stats.failedSessions += 1;
      this.stats.lastError = error instanceof Error ? error.message : String(error);
    }
  }
}
