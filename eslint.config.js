// ESLint: the import boundaries of docs/architecture.md, checked on every `npm test` (npm run lint).
// Each boundary is typescript-eslint's no-restricted-imports registered under its own name, so a
// file under several boundaries keeps all their patterns (two configurations of one rule would
// replace each other's), and a failure names the boundary it crossed. Formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrictedImports = tseslint.plugin.rules['no-restricted-imports'];
/** Filled in by boundary(): one rule per boundary. */
const boundaries = { rules: {} };

/** Domain modules: each is used by the others only through `<domain>/<domain>.module.ts`. */
const MODULES = ['auth', 'feedback', 'experiments', 'learning', 'analytics'];
const ROOT_FILES = ['app', 'container', 'main', 'cli', 'cli-keys', 'config', 'scheduler'];
const TESTS = ['**/*.test.ts'];

/**
 * One boundary: in `files` (tests excepted), an import whose specifier matches a pattern's regex
 * is an error with the pattern's message. A pattern is [regex, message, extra options].
 */
function boundary(name, files, patterns, ignores = []) {
  if (boundaries.rules[name]) throw new Error(`boundary ${name} is defined twice`);
  boundaries.rules[name] = restrictedImports;
  const options = patterns.map(([regex, message, extra = {}]) => ({ regex, message, caseSensitive: true, ...extra }));
  return { files, ignores: [...TESTS, ...ignores], rules: { [`boundaries/${name}`]: ['error', { patterns: options }] } };
}

const pure = (what, allowed) =>
  `${what} is pure code (plain data in, plain data out): it imports nothing of the service${allowed ? `, only ${allowed}` : ''}`;

export default [
  { ignores: ['dist/**', '**/dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'web/**'] },
  // typescript-eslint's recommended rules, without type information (fast on two cores).
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { boundaries },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a value left out on purpose (destructuring a field away).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Migrations take Kysely<any> (Kysely's own advice: a migration must not depend on today's
    // table types); tests read JSON bodies as any.
    files: ['src/storage/migrations/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // Pure code: the algorithms and the ground-floor definitions.
  boundary('pure-random', ['src/random/**/*.ts'], [['^(?!\\./)', pure('src/random')]]),
  boundary('pure-vocabulary', ['src/vocabulary/**/*.ts'], [['^(?!\\./)', pure('src/vocabulary')]]),
  boundary('pure-stats', ['src/stats/**/*.ts'], [['^(?!\\./|\\.\\./random/|@stdlib/)', pure('src/stats', 'src/random and @stdlib')]]),
  boundary(
    'pure-learning-algorithms',
    ['src/click-models/**/*.ts', 'src/ranker/**/*.ts'],
    [['^(?!\\./|\\.\\./random/)', pure('src/click-models and src/ranker', 'src/random')]],
  ),
  boundary(
    'pure-experiment-algorithms',
    ['src/experiments/assignment/**/*.ts', 'src/experiments/lifecycle/lifecycle.ts'],
    [['^(?!\\./)', pure('experiments/assignment and the lifecycle state machine')]],
  ),
  boundary(
    'pure-interleaving',
    ['src/experiments/interleaving/**/*.ts'],
    [['^(?!\\./|\\.\\./\\.\\./stats/|node:crypto$)', pure('experiments/interleaving', 'src/stats and node:crypto')]],
  ),
  boundary(
    'pure-training-runs',
    ['src/learning/training/runs/**/*.ts'],
    [
      [
        '^(kysely|fastify|pg|better-sqlite3|piscina|prom-client)$|^@fastify/|^node:(fs|net|http|https|child_process)$|(^|/)(storage|http|observability)/',
        'training runs execute in a worker thread on plain data: no database, HTTP or I/O',
      ],
    ],
  ),

  // The demo world is a client of the service: it reaches it only through the public HTTP API.
  boundary(
    'demo-public-api',
    ['src/demo/*.ts'],
    [
      [
        '^(?!\\./|\\.\\./random/|node:)',
        'src/demo is a client of the service: it imports only its own files, src/random and node: built-ins, and talks to the service over HTTP',
      ],
    ],
  ),
  boundary(
    'pure-demo-world',
    ['src/demo/world/**/*.ts'],
    [['^(?!\\./|\\.\\./\\.\\./random/)', pure('src/demo/world (the simulated site and its users)', 'src/random')]],
  ),

  // Floors: imports only go down. common/ vocabulary/ random/ < storage/ < http/ observability/ < modules < root files.
  boundary(
    'ground-floor',
    ['src/common/**/*.ts'],
    [
      ['^(?!\\./|node:|ulid$|fastify$)', 'common/ is the ground floor (errors live here, not in http/): it imports nothing of the service'],
      ['^fastify$', 'common/ may name Fastify types only (import type)', { allowTypeImports: true }],
    ],
  ),
  boundary(
    'below-modules',
    ['src/storage/**/*.ts', 'src/http/**/*.ts', 'src/observability/**/*.ts'],
    [[`(^|/)(${MODULES.join('|')})/`, 'storage/, http/ and observability/ sit below the domain modules and never import them']],
  ),
  boundary(
    'storage-floor',
    ['src/storage/**/*.ts'],
    [['(^|/)(http|observability)/', 'storage/ sits below http/: it imports common/ and vocabulary/']],
  ),
  boundary(
    'root-files',
    ['src/*/**/*.ts'],
    [
      [
        `^(\\.\\./)+(${ROOT_FILES.join('|')})\\.js$`,
        `the root files (${ROOT_FILES.join(', ')}) compose the service; nothing below imports them`,
      ],
    ],
  ),
  boundary(
    'frozen-migrations',
    ['src/**/*.ts'],
    [['(^|/)migrations/', 'a landed migration is frozen: runtime code never imports one (derive from src/vocabulary instead)']],
    ['src/storage/migrations/**', 'src/storage/migrator.ts'],
  ),

  // Modules: one public entry each. Inside a module anything goes; across modules, only the entry.
  ...MODULES.map((module) =>
    boundary(
      `module-entry-${module}`,
      [`src/${module}/**/*.ts`],
      MODULES.filter((other) => other !== module).map((other) => [
        `(^|/)${other}/(?!${other}\\.module\\.js$)`,
        `use the ${other} module through src/${other}/${other}.module.ts, not its files`,
      ]),
    ),
  ),
  boundary(
    'module-entry-root',
    ['src/*.ts'],
    [
      [
        `^\\./(${MODULES.join('|')})/(?!(${MODULES.join('|')})\\.module\\.js$)`,
        'the root knows modules only through their <domain>.module.ts',
      ],
    ],
  ),

  // issue 24 (analytics): the analytics model and the fold and spans plans are tested without a
  // database (their *.test.ts beside them); they read the stores' interfaces only, never a driver.
  boundary(
    'analytics-pure-core',
    ['src/analytics/model/**/*.ts', 'src/analytics/fold/fold-plan.ts', 'src/analytics/fold/spans.ts'],
    [
      [
        '^(kysely|pg|better-sqlite3|fastify|typebox)$|^@fastify/|(^|/)(storage|http)/|\\.kysely-store\\.js$|/fold-thread',
        'the analytics model and the fold and spans plans are pure: plain values in and out, store interfaces at most',
      ],
    ],
  ),

  // Services hold the rules: no HTTP, no SQL, no framework.
  boundary(
    'services',
    ['src/**/*.service.ts'],
    [
      [
        '^(fastify|kysely|pg|better-sqlite3|typebox)$|^@fastify/',
        'a service knows nothing about HTTP or SQL: plain values in, a store interface behind',
      ],
      ['(^|/)(http|storage)/', 'a service imports neither http/ nor storage/: errors are in common/, data comes through a store interface'],
    ],
  ),

  // Stores and their fakes: no HTTP, and no HTTP schema files (status enums live in the domain).
  boundary(
    'stores',
    [
      'src/**/*.store.ts',
      'src/**/*.kysely-store.ts',
      'src/**/fake-*.ts',
      // issue 24 (analytics): everything in a store/ folder is store code, suffix or not.
      'src/**/store/**/*.ts',
    ],
    [
      [
        '(^|/)http/|\\.schemas\\.js$|^fastify$|^@fastify/',
        'a store speaks SQL (or memory), never HTTP: domain types in, not request schemas',
      ],
    ],
  ),

  // Kysely stays in storage/ and the *.kysely-store.ts files.
  boundary(
    'kysely',
    ['src/**/*.ts'],
    [['^kysely$', 'only storage/, *.kysely-store.ts files and files under a store/ folder import Kysely']],
    [
      'src/storage/**',
      'src/**/*.kysely-store.ts',
      // issue 24 (analytics): a module's store/ folder holds its stores and what only they use
      // (statement tables, span upkeep), so those need no .kysely-store.ts suffix of their own.
      'src/**/store/**',
    ],
  ),
];
