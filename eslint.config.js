// ESLint: the import boundaries of docs/architecture.md, checked on every `npm test` (npm run lint).
// Each boundary is typescript-eslint's no-restricted-imports registered under its own name, so a
// file under several boundaries keeps all their patterns (two configurations of one rule would
// replace each other's), and a failure names the boundary it crossed. Formatting is Prettier's job.
import { readdirSync } from 'node:fs';
import { URL } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrictedImports = tseslint.plugin.rules['no-restricted-imports'];
/** Filled in by boundary(): one rule per boundary. */
const boundaries = { rules: {} };

/** Domain modules: each is used by the others only through `<domain>/<domain>.module.ts`. */
const MODULES = ['auth', 'feedback', 'experiments', 'learning', 'analytics'];
/** `ls src/*.ts` (tests aside): the composition root. The CLI that drives it lives in src/cli/. */
const ROOT_FILES = ['app', 'config', 'container', 'main', 'scheduler'];
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

// ── Sub-domain zones (issue 24 §4) ─────────────────────────────────────────────────────────────────
// Inside a module, each sub-domain folder imports only its own folder, the module's shared folders
// (model/ for shared records and store interfaces, ports/ for what is filled from outside, pure
// libraries) and the floors below the module. Only the module's root files (<module>.module.ts and
// the wiring it calls) put sub-domains together, so a sub-domain never imports a root file either,
// and the shared folders import no sub-domain. Generic: `...subdomainZones('<module>', [shared])`.
/** The folders and the .ts root files of src/<module>/, read from the tree so a new sub-domain is zoned at once. */
function moduleTree(module) {
  const entries = readdirSync(new URL(`./src/${module}/`, import.meta.url), { withFileTypes: true });
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  const rootFiles = entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => e.name.replace(/\.ts$/, ''));
  return { folders: folders.sort(), rootFiles: rootFiles.sort() };
}

/**
 * One boundary per folder of src/<module>/ (subdomains-<module>-<folder>): a sub-domain may not import
 * a sibling sub-domain nor a root file of the module; a shared folder may import no sub-domain. The
 * siblings are named (not a negative lookahead), so one pattern holds at any depth (training/runs/).
 */
function subdomainZones(module, sharedFolders) {
  const { folders, rootFiles } = moduleTree(module);
  const subdomains = folders.filter((folder) => !sharedFolders.includes(folder));
  const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const into = (names, end) => `^(\\.\\./)+(${module}/)?(${names.map(escape).join('|')})${end}`;
  const shared = sharedFolders.map((f) => `${module}/${f}/`).join(', ');
  return folders.map((own) => {
    const siblings = subdomains.filter((other) => other !== own);
    const isShared = sharedFolders.includes(own);
    return boundary(
      `subdomains-${module}-${own}`,
      [`src/${module}/${own}/**/*.ts`],
      [
        [
          into(siblings, '/'),
          isShared
            ? `${module}/${own}/ is shared by the sub-domains of ${module}, below them all: it imports none of them`
            : `${module}/${own}/ is a sub-domain: it imports its own folder, ${shared} and the floors below the module, never a sibling sub-domain (a type is shared through ${module}/model/, a behaviour through a port in ${module}/ports/ that the module's root files fill)`,
        ],
        [
          into(rootFiles, '\\.js$'),
          `${module}/${own}/ does not import the module's root files: they import the sub-domains, not the other way round`,
        ],
      ],
    );
  });
}
// ── end of sub-domain zones ───────────────────────────────────────────────────────────────────────

const pure = (what, allowed) =>
  `${what} is pure code (plain data in, plain data out): it imports nothing of the service${allowed ? `, only ${allowed}` : ''}`;

// Issue 24 (pure libraries by topic): a pure library has its entry files at its root and topic
// sub-folders one level deep (src/stats/quantiles/, src/ranker/trees/). A relative import stays in
// the library if it climbs no higher than the library's root: `./` from a root file, `./` or
// `../<topic>/` from a topic folder. `outside` are the src/ folders the library may still import
// (by name, e.g. 'random'), `packages` the npm scopes. Two boundaries, one per depth, because a
// regex on the specifier cannot know the importing file's depth; a folder nested deeper fails loudly.
function pureLibrary(name, dirs, outside, packages, message) {
  const allowed = (up) => [...outside.map((dir) => `${up}${dir}/`), ...packages].map((a) => `|${a.replaceAll('.', '\\.')}`).join('');
  return [
    boundary(
      name,
      dirs.map((dir) => `${dir}/*.ts`),
      [[`^(?!\\./(?!\\.\\./)${allowed('../')})`, message]],
    ),
    boundary(
      `${name}-topics`,
      dirs.map((dir) => `${dir}/*/**/*.ts`),
      [[`^(?!\\./(?!\\.\\./)|\\.\\./(?!\\.\\./)${allowed('../../')})`, message]],
    ),
  ];
}

export default [
  // web/ is linted too (issue 24): its own block below.
  { ignores: ['dist/**', '**/dist/**', 'node_modules/**', 'coverage/**', 'data/**'] },
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
    // The dashboard (issue 24): typescript-eslint's recommended rules (above) on web/'s .ts and .tsx,
    // parsed as JSX modules that run in the browser (web/scripts and vite.config.ts run on Node, and
    // typescript-eslint leaves undefined names to TypeScript: no-undef is off for TypeScript files).
    // eslint-plugin-react-hooks is not installed, so the rules of hooks are not checked.
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { sourceType: 'module', ecmaFeatures: { jsx: true } },
      globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', location: 'readonly', localStorage: 'readonly' },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
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
  // Issue 24: the pure libraries by topic, see pureLibrary().
  ...pureLibrary('pure-stats', ['src/stats'], ['random'], ['@stdlib/'], pure('src/stats', 'src/random and @stdlib')),
  ...pureLibrary(
    'pure-learning-algorithms',
    ['src/click-models', 'src/ranker'],
    ['random'],
    [],
    pure('src/click-models and src/ranker', 'src/random'),
  ),
  // Issue 26: offline evaluation reads click models and the vocabulary, nothing of the service.
  ...pureLibrary(
    'pure-offline-eval',
    ['src/offline-eval'],
    ['random', 'click-models', 'vocabulary'],
    [],
    pure('src/offline-eval', 'src/random, src/click-models and src/vocabulary'),
  ),
  boundary(
    'pure-experiment-algorithms',
    ['src/experiments/bucketing/**/*.ts', 'src/experiments/model/lifecycle.ts'],
    [['^(?!\\./)', pure('experiments/bucketing and the lifecycle state machine')]],
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
  // common/worker-threads.ts starts every worker thread, piscina's pool included (issue 24 §3), hence piscina.
  boundary(
    'ground-floor',
    ['src/common/**/*.ts'],
    [
      [
        '^(?!\\./|node:|ulid$|piscina$|fastify$)',
        'common/ is the ground floor (errors live here, not in http/): it imports nothing of the service',
      ],
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
  // Root files and the CLI (issue 24): src/cli/ sits beside the root files at the top, so it may use
  // them (config, main); nothing else below imports a root file, and nothing but the root imports src/cli/.
  boundary(
    'root-files',
    ['src/*/**/*.ts'],
    [
      [
        `^(\\.\\./)+(${ROOT_FILES.join('|')})\\.js$`,
        `the root files (${ROOT_FILES.join(', ')}) compose the service; nothing below imports them (src/cli/ drives them)`,
      ],
    ],
    ['src/cli/**'],
  ),
  boundary(
    'cli-on-top',
    ['src/*/**/*.ts'],
    [['^(\\.\\./)+cli/', 'src/cli/ is the command line on top of the service: only the root files may import it']],
    ['src/cli/**'],
  ),
  // Migrations are self-contained (issue 24): a landed migration must not change when runtime code
  // does, so it imports only kysely and its own folder (copy what it needs, frozen, into the file).
  boundary(
    'migrations-self-contained',
    ['src/storage/migrations/**/*.ts'],
    [
      [
        '^(?!kysely$|\\./)',
        'a migration is frozen history: it imports only kysely and its own folder (inline a frozen copy of what it needs)',
      ],
    ],
  ),
  boundary(
    'frozen-migrations',
    ['src/**/*.ts'],
    [['(^|/)migrations/', 'a landed migration is frozen: runtime code never imports one (derive from src/vocabulary instead)']],
    ['src/storage/migrations/**', 'src/storage/migrator.ts'],
  ),

  // Modules: one public entry each; across modules, only the entry (inside a module: the sub-domain zones).
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
  // Sub-domain zones (issue 24 §4): experiments' sub-domains meet only in the module's root files
  // (experiments.module.ts, the wiring experiments-services.ts, and fake-experiments.ts for tests).
  ...subdomainZones('experiments', ['model', 'ports', 'bucketing', 'interleaving']),
  // learning's sub-domains meet in learning.module.ts and its wiring, learning-services.ts.
  ...subdomainZones('learning', ['model', 'ports']),
  boundary(
    'module-entry-root',
    ['src/*.ts', 'src/cli/**/*.ts'],
    [
      [
        `^\\.\\.?/(${MODULES.join('|')})/(?!(${MODULES.join('|')})\\.module\\.js$)`,
        'the root and the CLI know modules only through their <domain>.module.ts',
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

  // Worker threads (issue 24 §3): common/worker-threads.ts is the one place that starts one (the
  // tsx bootstrap from source, `.js` from the build). Elsewhere a worker entry may import
  // parentPort and workerData, and any file may name the Worker or Piscina types.
  boundary(
    'worker-threads',
    ['src/**/*.ts'],
    [
      [
        '^(node:)?worker_threads$',
        'start a worker thread with moduleWorker() from common/worker-threads.ts (entries are named *.worker.ts)',
        { importNames: ['Worker'], allowTypeImports: true },
      ],
      ['^piscina$', 'start a piscina pool with modulePool() from common/worker-threads.ts', { allowTypeImports: true }],
    ],
    ['src/common/worker-threads.ts'],
  ),

  // Kysely and the two database drivers (better-sqlite3, pg: issue 24) stay in storage/, the
  // *.kysely-store.ts files and store/ folders. No named exceptions: the import's prepared statements
  // (was feedback/import/bulk-insert.ts) live in feedback/import/store/bulk-statements.ts.
  boundary(
    'kysely',
    ['src/**/*.ts'],
    [
      [
        '^(kysely|better-sqlite3|pg)$',
        'only storage/, *.kysely-store.ts files and files under a store/ folder import Kysely or a database driver (better-sqlite3, pg)',
      ],
    ],
    [
      'src/storage/**',
      'src/**/*.kysely-store.ts',
      // issue 24 (analytics): a module's store/ folder holds its stores and what only they use
      // (statement tables, span upkeep), so those need no .kysely-store.ts suffix of their own.
      'src/**/store/**',
    ],
  ),
];
