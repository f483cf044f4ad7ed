#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { runDemoCommand } from './demo-command.js';
import { runExportCommand } from './export-command.js';
import { IMPORT_HELP, runImportCommand } from './import-command.js';
import { KEYS_HELP, runKeysCommand } from './keys-command.js';
import { ConfigError, databaseOptions, loadConfig, loadImportConfig } from '../config.js';
import { serveUntilSignalled } from '../main.js';
import { openDatabase } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrator.js';
import { VERSION } from '../common/version.js';

const HELP = `searchloop ${VERSION} — search feedback, learned models and A/B experiments

Usage: searchloop <command> [--help]

Commands:
  serve      Run migrations, then serve the HTTP API (default)
  migrate    Apply pending database migrations and exit
  keys       Create, list and revoke API keys (searchloop keys --help)
  demo       A simulated search site driving the whole loop through the API (searchloop demo --help)
  import     Bulk import feedback from NDJSON, UBI or CSV (searchloop import --help)
  export     Export feedback as UBI, NDJSON or CSV (searchloop import --help)

Configuration (environment variables):
  PORT               port to listen on (default 3000)
  HOST               address to bind (default 127.0.0.1)
  DATABASE_URL       sqlite:///abs/path.db | sqlite:relative/path.db | postgres://user@host:5432/db
                     (default: ./data/searchloop.db, embedded SQLite)
  DATABASE_SCHEMA    PostgreSQL schema to use (default: the server's search_path, usually public)
  LOG_LEVEL          fatal | error | warn | info | debug | trace | silent (default info)
  LOG_FORMAT         auto (readable on a terminal, JSON otherwise) | pretty | json
  BODY_LIMIT_BYTES   largest accepted request body (default 2097152)
  SHUTDOWN_GRACE_MS  how long in-flight requests may take on SIGTERM (default 10000)
  SEARCHLOOP_API_KEYS   "<key>:<scope>,…" keys from the environment (scopes ingest, read, admin)
  SEARCHLOOP_ALLOW_OPEN 1 to serve without keys on a non-loopback HOST
  CORS_ORIGINS          allowed browser origins, comma-separated, or *
  RATE_LIMIT_PER_IP     requests per window per client IP without a valid key (default 6000; 0 = off;
                        loopback exempt while the service runs without keys)
  RATE_LIMIT_AUTH_FAILURES_PER_IP  invalid keys per window per IP before it gets 429s (default 30)
  RATE_LIMIT_PER_KEY    requests per window per API key (default 0 = off)
  RATE_LIMIT_WINDOW_MS  the window (default 60000)
  MAX_JSON_DEPTH, DATABASE_POOL_SIZE, DATABASE_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS
`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'demo') return runDemoCommand(argv.slice(1));
  if (argv[0] === 'keys') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(KEYS_HELP);
      return 0;
    }
    return runKeysCommand(argv.slice(1), loadConfig(), (text) => process.stdout.write(text));
  }
  if (argv[0] === 'import' || argv[0] === 'export') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(IMPORT_HELP);
      return 0;
    }
    const io = {
      out: (t: string) => process.stdout.write(t),
      err: (t: string) => process.stderr.write(t),
      tty: process.stderr.isTTY === true,
      ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
    };
    return argv[0] === 'import'
      ? runImportCommand(argv.slice(1), loadConfig, io, loadImportConfig())
      : runExportCommand(argv.slice(1), loadConfig, io);
  }
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
  });
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const config = loadConfig();
  if (command === 'serve') {
    await serveUntilSignalled(config);
    return -1; // keeps running
  }
  if (command === 'migrate') {
    const database = await openDatabase(config.database, databaseOptions(config));
    try {
      const { applied } = await migrateToLatest(database);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    } finally {
      await database.close();
    }
    return 0;
  }
  process.stderr.write(`unknown command "${command}"\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`searchloop failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
