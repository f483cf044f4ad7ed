import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, databaseOptions, loadConfig, loadImportConfig, parseDatabaseUrl } from './config.js';

describe('configuration', () => {
  it('defaults to port 3000 on 127.0.0.1 with ./data/searchloop.db', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', logLevel: 'info', logFormat: 'auto', bodyLimitBytes: 2 * 1024 * 1024 });
    expect(loadConfig({ LOG_FORMAT: 'JSON' }, '/srv/app').logFormat).toBe('json');
    expect(c.database).toEqual({ kind: 'sqlite', path: '/srv/app/data/searchloop.db' });
  });

  it('reads every DATABASE_URL form', () => {
    expect(parseDatabaseUrl('sqlite:///var/lib/s.db', '/x')).toEqual({ kind: 'sqlite', path: '/var/lib/s.db' });
    expect(parseDatabaseUrl('sqlite:rel/s.db', '/x')).toEqual({ kind: 'sqlite', path: path.resolve('/x', 'rel/s.db') });
    expect(parseDatabaseUrl('postgres://u@h:5432/db', '/x')).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(parseDatabaseUrl('postgresql://u@h/db', '/x', 'tenant_a')).toEqual({
      kind: 'postgres',
      url: 'postgresql://u@h/db',
      schema: 'tenant_a',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'colour' }, 'LOG_FORMAT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite://relative.db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    [{ DATABASE_SCHEMA: 'Drop Table' }, 'DATABASE_SCHEMA'],
    [{ HOST: ' ' }, 'HOST'],
    [{ SQLITE_MAX_PAGE_COUNT: '0' }, 'SQLITE_MAX_PAGE_COUNT'],
    [{ SQLITE_MAX_PAGE_COUNT: 'lots' }, 'SQLITE_MAX_PAGE_COUNT'],
    [{ FEEDBACK_RETENTION_DAYS: '-1' }, 'FEEDBACK_RETENTION_DAYS'],
    [{ FEEDBACK_RETENTION_DAYS: 'a year' }, 'FEEDBACK_RETENTION_DAYS'],
    [{ ANALYTICS_FOLD_THREAD: 'yes' }, 'ANALYTICS_FOLD_THREAD'],
    [{ ANALYTICS_FOLD_NICE: '20' }, 'ANALYTICS_FOLD_NICE'],
    [{ ANALYTICS_FOLD_NICE: '-5' }, 'ANALYTICS_FOLD_NICE'],
  ])('refuses %o naming %s', (env, variable) => {
    expect(() => loadConfig(env, '/x')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/x')).toThrow(variable);
  });

  it('keeps feedback forever unless FEEDBACK_RETENTION_DAYS says otherwise', () => {
    expect(loadConfig({}, '/x').feedbackRetentionDays).toBe(0);
    expect(loadConfig({ FEEDBACK_RETENTION_DAYS: '90' }, '/x').feedbackRetentionDays).toBe(90);
  });

  it('folds analytics on a worker thread unless ANALYTICS_FOLD_THREAD is false or 0', () => {
    expect(loadConfig({}, '/x').analyticsFoldThread).toBe(true);
    expect(loadConfig({ ANALYTICS_FOLD_THREAD: 'false' }, '/x').analyticsFoldThread).toBe(false);
    expect(loadConfig({ ANALYTICS_FOLD_THREAD: '0' }, '/x').analyticsFoldThread).toBe(false);
    expect(loadConfig({ ANALYTICS_FOLD_THREAD: 'TRUE' }, '/x').analyticsFoldThread).toBe(true);
  });

  it('runs the fold thread at the lowest priority unless ANALYTICS_FOLD_NICE says otherwise', () => {
    expect(loadConfig({}, '/x').analyticsFoldNice).toBe(19);
    expect(loadConfig({ ANALYTICS_FOLD_NICE: '0' }, '/x').analyticsFoldNice).toBe(0);
    expect(loadConfig({ ANALYTICS_FOLD_NICE: '10' }, '/x').analyticsFoldNice).toBe(10);
  });

  it('hands every database setting to openDatabase, the page cap only when set', () => {
    expect(databaseOptions(loadConfig({}, '/x'))).toEqual({ poolSize: 10, connectionTimeoutMs: 5000, statementTimeoutMs: 30_000 });
    expect(databaseOptions(loadConfig({ SQLITE_MAX_PAGE_COUNT: '3000', DATABASE_POOL_SIZE: '4' }, '/x'))).toMatchObject({
      poolSize: 4,
      sqliteMaxPageCount: 3000,
    });
  });

  it("reads the import command's two settings apart from the service's configuration", () => {
    expect(loadImportConfig({})).toEqual({ inline: false, progressIntervalMs: undefined });
    expect(loadImportConfig({ SEARCHLOOP_IMPORT_INLINE: '1', SEARCHLOOP_PROGRESS_MS: '0' })).toEqual({
      inline: true,
      progressIntervalMs: 0,
    });
    expect(() => loadImportConfig({ SEARCHLOOP_PROGRESS_MS: 'soon' })).toThrow(ConfigError);
  });
});
