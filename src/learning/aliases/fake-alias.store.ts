import type { AliasChange, AliasEvent, AliasRecord, AliasStore, AliasTarget } from './alias.store.js';

const targetOf = (a: AliasRecord | undefined): AliasTarget | null => (a?.modelId ? { modelId: a.modelId, version: a.version } : null);

/** In-memory aliases for service tests; held to KyselyAliasStore by test/contract/alias.contract.test.ts. */
export class FakeAliasStore implements AliasStore {
  readonly aliases = new Map<string, AliasRecord>();
  readonly events: AliasEvent[] = [];

  async get(alias: string) {
    const found = this.aliases.get(alias);
    return found ? { ...found } : undefined;
  }

  async list(afterAlias: string | undefined, limit: number) {
    return [...this.aliases.values()]
      .filter((a) => afterAlias === undefined || a.alias > afterAlias)
      .sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0))
      .slice(0, limit)
      .map((a) => ({ ...a }));
  }

  async move(change: AliasChange) {
    const before = this.aliases.get(change.record.alias);
    this.aliases.set(change.record.alias, { ...change.record });
    const event: AliasEvent = { ...change.event, from: targetOf(before) };
    this.events.push(event);
    return event;
  }

  async listEvents(alias: string, afterId: string | undefined, limit: number) {
    return this.events
      .filter((e) => e.alias === alias && (afterId === undefined || e.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }
}
