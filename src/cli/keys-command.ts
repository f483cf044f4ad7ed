import { parseArgs } from 'node:util';
import { createAuthModule } from '../auth/auth.module.js';
import { systemClock } from '../common/clock.js';
import { API_SCOPES, type ApiScope } from '../common/scopes.js';
import { databaseOptions, type AppConfig } from '../config.js';
import { openDatabase } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrator.js';

export const KEYS_HELP = `searchloop keys <create|list|revoke>

  keys create --name NAME --scope ingest|read|admin   prints the new key once (only its hash is stored)
  keys list                                           names, scopes, prefixes, created and revoked times
  keys revoke NAME_OR_ID                              the key stops working (other instances: within 5 s)

Scopes: ingest (POST feedback, assign: safe to ship to a browser), read (GETs, results, exports),
admin (everything: create and change experiments and models).
`;

/** `searchloop keys …`: manages API keys directly in the configured database. */
export async function runKeysCommand(args: string[], config: AppConfig, out: (text: string) => void): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: 'string' }, scope: { type: 'string' } },
  });
  const sub = positionals[0];
  const database = await openDatabase(config.database, databaseOptions(config));
  try {
    await migrateToLatest(database);
    const service = createAuthModule({ database, clock: systemClock }).services.apiKeys;
    if (sub === 'create') {
      if (!values.name || !/^[\w.:-]{1,100}$/.test(values.name)) {
        out('keys create needs --name (letters, digits, _ . : -, up to 100)\n');
        return 2;
      }
      if (!values.scope || !(API_SCOPES as readonly string[]).includes(values.scope)) {
        out(`keys create needs --scope ${API_SCOPES.join('|')}\n`);
        return 2;
      }
      const { key, record } = await service.create(values.name, values.scope as ApiScope);
      out(`${key}\n`);
      process.stderr.write(`created key "${record.name}" (${record.scope}); store it now: it is not shown again\n`);
      return 0;
    }
    if (sub === 'list') {
      for (const k of await service.list()) {
        out(
          `${k.name}\t${k.scope}\t${k.prefix}…\tcreated ${new Date(k.createdAt).toISOString()}${k.revokedAt ? `\trevoked ${new Date(k.revokedAt).toISOString()}` : ''}\n`,
        );
      }
      return 0;
    }
    if (sub === 'revoke' && positionals[1]) {
      await service.revoke(positionals[1]);
      out(`revoked ${positionals[1]}\n`);
      return 0;
    }
    out(KEYS_HELP);
    return 2;
  } finally {
    await database.close();
  }
}
