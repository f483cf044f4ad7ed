import path from 'node:path';
import { API_SCOPES, type ApiScope } from './common/scopes.js';
import type { DatabaseOptions, DatabaseTarget } from './storage/database.js';
import { LOWEST_PRIORITY_NICE } from './common/thread-priority.js';

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: readable lines (`pretty`), JSON lines (`json`), or pretty on a terminal and JSON otherwise (`auto`). */
  logFormat: LogFormat;
  bodyLimitBytes: number;
  shutdownGraceMs: number;
  databasePoolSize: number;
  /** Longest wait for a pooled PostgreSQL connection, ms. */
  databaseTimeoutMs: number;
  /** Longest one PostgreSQL statement may run, ms. */
  databaseStatementTimeoutMs: number;
  /** Keys from SEARCHLOOP_API_KEYS ("<key>:<scope>,…"); keys created with the CLI live in the database. */
  apiKeys: { key: string; scope: ApiScope }[];
  /** Serve without keys on a non-loopback address (SEARCHLOOP_ALLOW_OPEN=1). */
  allowOpen: boolean;
  /** Origins allowed by CORS: exact origins, or ["*"]; empty means no CORS headers. */
  corsOrigins: string[];
  /** Requests per window per API key and per client IP; 0 turns a limit off. */
  rateLimitPerKey: number;
  rateLimitPerIp: number;
  rateLimitAuthFailuresPerIp: number;
  rateLimitWindowMs: number;
  /** Deepest JSON nesting accepted in a request body. */
  maxJsonDepth: number;
  /** SQLite only: the most pages (4 KiB) the file may grow to; undefined is unlimited. */
  sqliteMaxPageCount: number | undefined;
  /** FEEDBACK_RETENTION_DAYS: feedback received longer ago is removed; 0 (default) keeps everything. */
  feedbackRetentionDays: number;
  /** ANALYTICS_FOLD_THREAD: search analytics fold feedback on a worker thread (default) or on the event loop. */
  analyticsFoldThread: boolean;
  /** ANALYTICS_FOLD_NICE: the fold thread's nice value on Linux, 0–19 (19: it uses only CPU that requests leave idle). */
  analyticsFoldNice: number;
}

/** The database options the configuration sets (every command that opens the database uses them). */
export function databaseOptions(config: AppConfig): DatabaseOptions {
  return {
    poolSize: config.databasePoolSize,
    connectionTimeoutMs: config.databaseTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    ...(config.sqliteMaxPageCount === undefined ? {} : { sqliteMaxPageCount: config.sqliteMaxPageCount }),
  };
}

function parseApiKeys(raw: string | undefined): { key: string; scope: ApiScope }[] {
  if (!raw || raw.trim() === '') return [];
  return raw.split(',').map((entry, i) => {
    const at = entry.lastIndexOf(':');
    const key = entry.slice(0, at).trim();
    const scope = entry.slice(at + 1).trim();
    if (at <= 0 || key.length < 16)
      throw new ConfigError('SEARCHLOOP_API_KEYS', `entry ${i + 1} must be "<key of 16+ characters>:<scope>"`);
    if (!(API_SCOPES as readonly string[]).includes(scope))
      throw new ConfigError('SEARCHLOOP_API_KEYS', `entry ${i + 1} has scope "${scope}"; use ${API_SCOPES.join(', ')}`);
    return { key, scope: scope as ApiScope };
  });
}

function parseOrigins(raw: string | undefined): string[] {
  if (!raw || raw.trim() === '') return [];
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o))
      throw new ConfigError('CORS_ORIGINS', `"${o}" is not an origin like https://shop.example.com (or *)`);
  }
  return origins;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];
export const DEFAULT_SQLITE_PATH = 'data/searchloop.db';

/** A switch: true/1 or false/0 (unset: the default); anything else is refused, naming the variable. */
function booleanVar(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

function integerVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/**
 * Accepted forms: `sqlite:///absolute/path.db`, `sqlite:relative/path.db` (relative to the
 * working directory), `postgres://…` / `postgresql://…`. Unset means ./data/searchloop.db.
 */
export function parseDatabaseUrl(raw: string | undefined, cwd: string, schema?: string): DatabaseTarget {
  if (raw === undefined || raw.trim() === '') return { kind: 'sqlite', path: path.resolve(cwd, DEFAULT_SQLITE_PATH) };
  const url = raw.trim();
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    try {
      new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return schema ? { kind: 'postgres', url, schema } : { kind: 'postgres', url };
  }
  if (url.startsWith('sqlite://')) {
    const file = url.slice('sqlite://'.length);
    if (!file.startsWith('/'))
      throw new ConfigError(
        'DATABASE_URL',
        'sqlite:// needs an absolute path (sqlite:///abs/file.db); use sqlite:relative/file.db for a relative one',
      );
    return { kind: 'sqlite', path: file };
  }
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file === '') throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path');
    return { kind: 'sqlite', path: path.resolve(cwd, file) };
  }
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got "${url.split(':')[0]}:…"`);
}

/** SQLITE_MAX_PAGE_COUNT: a whole number of pages above 0, or unset. */
function sqliteMaxPageCount(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1)
    throw new ConfigError('SQLITE_MAX_PAGE_COUNT', `must be a whole number of pages above 0, got "${raw}"`);
  return Number(raw);
}

/**
 * What `searchloop import` reads from the environment. Apart from AppConfig: an import over HTTP
 * (--url) never loads the service's configuration, so a DATABASE_URL it does not use cannot stop it.
 */
export interface ImportCommandConfig {
  /** SEARCHLOOP_IMPORT_INLINE=1: lines are parsed on the importing thread, not on a worker (tests compare both). */
  inline: boolean;
  /** SEARCHLOOP_PROGRESS_MS: least time between two progress redraws (tests set 0); unset: 200 ms on a terminal, 5 s otherwise. */
  progressIntervalMs: number | undefined;
}

/**
 * The environment a child process of the CLI starts from (the demo's own service): read here like
 * every other variable, so config.ts stays the one reader of process.env.
 */
export function inheritedEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env };
}

export function loadImportConfig(env: NodeJS.ProcessEnv = process.env): ImportCommandConfig {
  const progress = env.SEARCHLOOP_PROGRESS_MS;
  return {
    inline: booleanVar(env, 'SEARCHLOOP_IMPORT_INLINE', false),
    progressIntervalMs: progress === undefined || progress === '' ? undefined : integerVar(env, 'SEARCHLOOP_PROGRESS_MS', 0, 0, 3_600_000),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): AppConfig {
  const logLevel = (env.LOG_LEVEL ?? 'info').trim();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const logFormat = (env.LOG_FORMAT ?? 'auto').trim().toLowerCase() || 'auto';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) {
    throw new ConfigError('LOG_FORMAT', `must be one of ${LOG_FORMATS.join(', ')}, got "${env.LOG_FORMAT}"`);
  }
  const host = (env.HOST ?? '127.0.0.1').trim();
  if (host === '') throw new ConfigError('HOST', 'must not be empty');
  const schema = env.DATABASE_SCHEMA?.trim();
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError('DATABASE_SCHEMA', 'must be a lower-case SQL identifier');
  }
  return {
    port: integerVar(env, 'PORT', 3000, 0, 65535),
    host,
    database: parseDatabaseUrl(env.DATABASE_URL, cwd, schema || undefined),
    logLevel: logLevel as AppConfig['logLevel'],
    logFormat: logFormat as LogFormat,
    bodyLimitBytes: integerVar(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    shutdownGraceMs: integerVar(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    databasePoolSize: integerVar(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseTimeoutMs: integerVar(env, 'DATABASE_TIMEOUT_MS', 5000, 100, 600_000),
    databaseStatementTimeoutMs: integerVar(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    apiKeys: parseApiKeys(env.SEARCHLOOP_API_KEYS),
    allowOpen: env.SEARCHLOOP_ALLOW_OPEN === '1' || env.SEARCHLOOP_ALLOW_OPEN === 'true',
    corsOrigins: parseOrigins(env.CORS_ORIGINS),
    rateLimitPerKey: integerVar(env, 'RATE_LIMIT_PER_KEY', 0, 0, 100_000_000),
    rateLimitPerIp: integerVar(env, 'RATE_LIMIT_PER_IP', 6_000, 0, 100_000_000),
    rateLimitAuthFailuresPerIp: integerVar(env, 'RATE_LIMIT_AUTH_FAILURES_PER_IP', 30, 0, 100_000_000),
    rateLimitWindowMs: integerVar(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 3_600_000),
    maxJsonDepth: integerVar(env, 'MAX_JSON_DEPTH', 32, 2, 1000),
    sqliteMaxPageCount: sqliteMaxPageCount(env.SQLITE_MAX_PAGE_COUNT),
    feedbackRetentionDays: integerVar(env, 'FEEDBACK_RETENTION_DAYS', 0, 0, 36_500),
    analyticsFoldThread: booleanVar(env, 'ANALYTICS_FOLD_THREAD', true),
    analyticsFoldNice: integerVar(env, 'ANALYTICS_FOLD_NICE', LOWEST_PRIORITY_NICE, 0, LOWEST_PRIORITY_NICE),
  };
}
