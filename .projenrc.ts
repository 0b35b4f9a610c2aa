import { javascript, JsonFile, TaskShell, typescript } from 'projen';

const project = new typescript.TypeScriptProject({
  name: 'cdk-capability',
  description:
    'One typed composition per capability: AWS CDK deployment aggregates and cdk8s runtime routing, synthesized in dependency order with field ownership enforced.',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  defaultReleaseBranch: 'main',
  license: 'Apache-2.0',
  copyrightOwner: 'cdk-capability authors',
  minNodeVersion: '20.0.0',
  typescriptVersion: '~5.9.0',

  srcdir: 'src',
  libdir: 'lib',
  testdir: 'test',

  // Our own pinned dev copies below replace projen's minimum-version dev pins.
  peerDependencyOptions: { pinnedDevDependency: false },
  peerDeps: ['constructs@^10.5.0', 'cdk8s@^2.68.11', 'cdk8s-plus-30@^2.2.5', 'aws-cdk-lib@^2.262.0'],
  // Pinned dev copies of the peers so tests run against one known version.
  devDeps: [
    'constructs@10.8.1',
    'cdk8s@2.70.106',
    'cdk8s-plus-30@2.4.10',
    // The cdk8s-plus major cdk8s-cli's templates install: a test checks that the routing helpers take its constructs.
    'cdk8s-plus-33@2.5.57',
    'aws-cdk-lib@2.276.0',
    // The real CLIs, run by tests against our output.
    'cdk8s-cli@2.207.60',
    'aws-cdk@2.1148.1',
    // Published Kubernetes schemas to validate our manifests against things we did not write.
    'kubernetes-models@^4.5.1',
    // The same for our CRD kinds; pinned to the last majors that support Node 20 (the next ones need Node >= 22).
    '@kubernetes-models/gateway-api@0.5.1',
    '@kubernetes-models/flux-cd@2.3.4',
    '@kubernetes-models/external-secrets@0.5.2',
    '@kubernetes-models/istio@2.3.0',
    // A conformant CEL evaluator (cel-spec conformance tests, Buf, released monthly, Node >= 20) to compile and run
    // the admission policies' expressions in tests; @bufbuild/protobuf is its peer dependency.
    '@bufbuild/cel@^0.6.1',
    '@bufbuild/protobuf@^2.6.2',
    // Decodes TypeScript's source map when a docs snippet runs as main.ts (its lines as written), in test/doc-snippets.ts.
    '@jridgewell/sourcemap-codec@^1.5.0',
    // Property-based tests for the graph and the ledger.
    'fast-check@^4.3.0',
    // The SARIF 2.1.0 JSON Schema (vendor/sarif) is draft-04, which ajv 8 reads only with this plugin (ajv's own
    // package for it); ajv-formats checks its "uri" and "date-time" formats (already in the tree through ajv's users).
    'ajv-draft-04@^1.0.0',
    'ajv-formats@^2.1.1',
    '@types/semver',
    '@types/js-yaml',
    // The architecture rule in the test task: no run-time import cycle, no stage importing a later one (see docs/ARCHITECTURE.md).
    // A maintained dependency analyzer that reads TypeScript imports (type-only ones told apart); 17 is the last major on Node 20.
    'dependency-cruiser@^17.4.3',
    // API reference in docs/api from the doc comments; its validation also fails on an undocumented public member.
    'typedoc@^0.28.0',
    'typedoc-plugin-markdown@^4.9.0',
    // The aws-cdk-examples ddb-stream-lambda-sns example of the regression corpus (test/fixtures/corpus) builds on this L3 construct.
    '@aws-solutions-constructs/aws-dynamodbstreams-lambda@2.101.0',
    // Writes lib/bundle.js, the one file of JavaScript the package ships (scripts/bundle-lib.js): a small app loaded
    // ~25 ms sooner than from tsc's ~170 files (README, "What each path costs"). A bundler that keeps modules reached by
    // require() lazy (the runtime entry must load no aws-cdk-lib) and reads TypeScript itself, in one install (its platform binary).
    'esbuild@^0.28.2',
    // AWS's published resource specification as aws-cdk generates its L1s from it (db.json.gz, each property's
    // causesReplacement): the build-time source of src/release/replacement-properties.generated.ts
    // (`npx projen replacement-properties`), pinned so the generated table names one version. Never loaded at run time.
    '@aws-cdk/aws-service-spec@0.1.216',
  ],
  // semver: the reference semver implementation.
  // js-yaml writes the manifests: byte-identical to cdk8s' own writer on our shapes and, measured cold as a synth
  // runs it, 2.6x faster than yaml's stringify on 10,000 ConfigMaps (220 vs 579 ms CPU) and 2x on the small app's
  // 100 cdk8s-plus objects (55 vs 100 ms), its ~6 ms load included; already in most trees (eslint depends on it).
  // ajv checks the lock file against its JSON Schema (docs/lock.schema.json, draft 2020-12) before any rule reads it,
  // one coded refusal per violation with its JSON pointer: the most used and maintained validator, already what the
  // tests validate manifests, SARIF and the plan output with, and in most trees (eslint depends on it).
  // yaml: the validation plugin reads manifest files with the reader cdk8s-cli itself uses, for its errors with line
  // and column and its alias limit (js-yaml stops at the first error and expands any alias); tests read our output with it.
  deps: ['semver@^7.6.0', 'js-yaml@^4.1.0', 'ajv@^8.17.0', 'yaml@^2.6.0'],

  tsconfig: {
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: false,
      lib: ['es2022'],
      target: 'ES2022',
    },
  },
  tsconfigDev: {
    // ts-jest transpiles each file on its own (fast); the test task type-checks everything once with tsc.
    // skipLibCheck: fast-check 4's own .d.ts does not check under our CommonJS module settings.
    // The bench's scenarios import the package by its name, as a user's program does; for types, that is src/.
    // (At run time the compiled bench requires the built package: bench/package-build.ts.)
    compilerOptions: {
      isolatedModules: true,
      skipLibCheck: true,
      paths: { 'cdk-capability': ['../src/index.ts'], 'cdk-capability/runtime': ['../src/runtime.ts'] },
    },
    include: ['../examples/**/*.ts', '../bench/**/*.ts', '../scripts/**/*.ts'],
    exclude: ['../examples/**/dist/**', '../examples/**/imports/**'],
  },

  jestOptions: {
    // Snapshots are never rewritten by the test task: a changed output must fail.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      // Coverage instrumentation doubles the suite's time; run `npx jest --coverage` when wanted.
      collectCoverage: false,
      // A guard against a hung test, not a budget: a loaded 2-core CI machine must pass, however slowly (issue 17).
      testTimeout: 900_000,
      maxWorkers: 2,
      testPathIgnorePatterns: ['/node_modules/', '/test/fixtures/', '/examples/'],
      // the package by its name (the bench's scenarios import it so) is its source in the tests
      moduleNameMapper: { '^cdk-capability$': '<rootDir>/src/index.ts', '^cdk-capability/runtime$': '<rootDir>/src/runtime.ts' },
      // aws-cdk's template validator costs seconds per synth: off in every test file but the one that turns it on.
      setupFiles: ['<rootDir>/test/setup-env.ts'],
      // each test file ends the lock-refreshing thread its synths started, so its jest worker exits at once
      setupFilesAfterEnv: ['<rootDir>/test/end-threads.ts'],
    },
    // jest writes its totals as JSON so .ci/run can print `N passed, N failed`.
    extraCliOptions: ['--json', '--outputFile=test-reports/jest-results.json'],
  },

  gitignore: ['/dist/', 'examples/**/dist/', '/test-reports/', '*.tgz', '/.capability-*', '.*.run-*/'],
  npmignoreEnabled: true,
  githubOptions: { mergify: false },
  // The tests run the real structured-merge-diff (Go, from Debian) as the oracle of the field ledger.
  workflowBootstrapSteps: [{ name: 'Install Go and structured-merge-diff', run: 'bash test/smd/install.sh' }],
  depsUpgrade: false,
  pullRequestTemplate: false,
  release: true,
  releaseToNpm: true,
  npmProvenance: true,
});

// Type-check src, tests (their @ts-expect-error lines included), examples and bench in one pass.
project.testTask.exec('tsc --noEmit -p test/tsconfig.json');
// The architecture rule: stages and layers import only downwards, and no import cycle (.dependency-cruiser.cjs).
project.addTask('architecture', {
  description: 'Fail on an import cycle or a layer importing a later one (docs/ARCHITECTURE.md)',
  exec: 'depcruise src --config .dependency-cruiser.cjs --output-type err',
});
project.testTask.spawn(project.tasks.tryFind('architecture')!);
project.npmignore?.exclude('/.dependency-cruiser.cjs');

// `cdk-capability plan`: prints a synth's plan readably and exits non-zero on refusals.
project.addBins({ 'cdk-capability': 'lib/cli/main.js' });

// The JavaScript that ships is one file, lib/bundle.js, beside tsc's declarations (scripts/bundle-lib.js; docs/ARCHITECTURE.md).
project.compileTask.exec('node scripts/bundle-lib.js');
// V8's code caches a run writes beside lib/bundle.js (its entry files' loader) are of that machine's Node: never packed.
project.npmignore?.exclude('/lib/*.v8-cache');

// cdk8s-plus is needed only by RuntimeRouting.addBackend and contract handles; any of majors 30 to 33 will do.
// aws-cdk-lib is needed only by the main entry's stacks: a cdk-capability/runtime program need not install it (163 MB), as the README says.
project.package.addField('peerDependenciesMeta', { 'cdk8s-plus-30': { optional: true }, 'aws-cdk-lib': { optional: true } });

// The bundled example, synthesized by the real cdk8s CLI; no cloud account needed.
// --no-check-upgrade: the CLI's upgrade check queries the npm registry and prints a stack trace offline.
project.addTask('example', {
  description: 'Synthesize examples/cdn with `cdk8s synth` into examples/cdn/dist',
  cwd: 'examples/cdn',
  exec: 'cdk8s synth --no-check-upgrade',
});

// `npm pack` / `npm publish` in a clone: refuse when lib/ is missing or older than src/ (build with `npm run compile`).
project.addTask('prepack', {
  description: 'Refuse to pack when lib/ is missing or older than src/ (run `npm run compile` first)',
  exec: 'node scripts/prepack-guard.js',
});

// Benchmark against bare cdk8s and aws-cdk (`npm run bench -- --quick` for a short run); writes bench/RESULTS.md.
// Compiled to JS first (bench/.out) so no measured child process pays for ts-node.
project.addTask('bench', {
  description: 'Benchmark synth against bare cdk8s and aws-cdk; writes bench/RESULTS.md (-- --quick for a short run)',
  steps: [{ exec: 'tsc -p bench/tsconfig.json' }, { exec: 'node bench/.out/bench/run.js', receiveArgs: true }],
});
project.gitignore.exclude('/bench/.out/');
// a worktree's node_modules may be a symlink to another checkout's, which the default `node_modules/` pattern does not match
project.gitignore.exclude('/node_modules');

// Typed classes for the CRD kinds we emit, generated offline by the real `cdk8s import` into src/imports and
// committed: builds never read the CRD files (vendored data in vendor/crds, with their provenance).
const crdImports: Record<string, string> = {
  httproute: 'gateway-api.httproutes.yaml',
  virtualservice: 'istio.virtualservices.yaml',
  kustomization: 'flux.kustomizations.yaml',
  externalsecret: 'external-secrets.externalsecrets.yaml',
  // ClusterSecretStore and Gateway are cluster prerequisites we never emit: not generated (they would ship unused code).
};
project.addTask('import', {
  description: 'Regenerate src/imports with `cdk8s import` from the CRD files in $CRDS_DIR (default vendor/crds)',
  shell: TaskShell.sh(), // projen's built-in shell has no ${VAR:-default}
  steps: [
    { exec: 'test -d "${CRDS_DIR:-vendor/crds}" && rm -rf src/imports' },
    ...Object.entries(crdImports).map(([name, file]) => ({
      exec: `cdk8s import --no-save --no-check-upgrade --language typescript --output src/imports ${name}:="\${CRDS_DIR:-vendor/crds}/${file}"`,
    })),
  ],
});
// Generated code: not linted (cdk8s import has its own style), collapsed in diffs.
project.eslint?.addIgnorePattern('src/imports/');
// `push(...items)` passes every item as an argument and overflows the stack on user-sized arrays (issue 22): appendAll.
project.eslint?.addOverride({
  files: ['src/**/*.ts'],
  rules: {
    'no-restricted-syntax': ['error', {
      selector: "CallExpression[callee.property.name='push'] > SpreadElement",
      message: 'push(...items) overflows the stack on large arrays: use appendAll (src/private/append.ts) or a loop.',
    }],
  },
});
// The bench's scenarios import the package by its name: the linter resolves it as tsc does (test/tsconfig.json's paths).
project.tryFindObjectFile('.eslintrc.json')?.addOverride('settings.import/resolver.typescript.project', ['./tsconfig.json', './test/tsconfig.json']);
project.tryFindObjectFile('.eslintrc.json')?.addOverride('settings.import/resolver.typescript.noWarnOnMultipleProjects', true);
project.gitattributes.addAttributes('/src/imports/**', 'linguist-generated');
// Vendored upstream data (vendor/*/README.md says where each comes from): collapsed in diffs, never shipped.
project.gitattributes.addAttributes('/vendor/**', 'linguist-vendored');
project.npmignore?.exclude('/vendor/');

// The field topology of the built-in kinds (what server-side apply owns as one leaf), generated offline from the
// structured-merge-diff schema that client-go carries, and committed: builds never read the schema file (data outside
// this project); test/field-topology.test.ts regenerates from it and fails when the committed file is stale.
project.addTask('topology', {
  description:
    'Regenerate src/collect/topology/k8s-1.30.generated.ts from the SMD schema in $K8S_SMD_SCHEMA (default vendor/k8s-schema/k8s-1.30.smd-schema.yaml)',
  exec: 'ts-node --project projenrc/tsconfig.json scripts/generate-k8s-topology.ts',
});
project.gitattributes.addAttributes('/src/collect/topology/*.generated.ts', 'linguist-generated');

// The lock's JSON Schema validator, compiled ahead of time by ajv's standalone code generation and committed: compiling
// the schema at run time cost about 0.2 s of every synth that reads a lock. test/lock-validator.test.ts fails when stale.
project.addTask('lock-validator', {
  description: 'Regenerate src/release/lock-validator.generated.ts from docs/lock.schema.json (ajv standalone code)',
  exec: 'ts-node --project projenrc/tsconfig.json scripts/generate-lock-validator.ts',
});
project.gitattributes.addAttributes('/src/release/lock-validator.generated.ts', 'linguist-generated'); // not linted: *.generated.ts

// Which properties of the physical-name types (collect's PHYSICAL_NAMES) make CloudFormation replace the resource, from
// AWS's published specification (@aws-cdk/aws-service-spec), generated and committed: a synth never loads the 2.6 MB
// database. test/replacement-properties.test.ts regenerates it from the installed package and fails when it is stale.
project.addTask('replacement-properties', {
  description: 'Regenerate src/release/replacement-properties.generated.ts from @aws-cdk/aws-service-spec (properties whose causesReplacement is yes or maybe)',
  exec: 'ts-node --project projenrc/tsconfig.json scripts/generate-replacement-properties.ts',
});
project.gitattributes.addAttributes('/src/release/replacement-properties.generated.ts', 'linguist-generated');

// structured-merge-diff's verdicts, recorded by the live Go oracle so `npm test` needs Node alone (test/smd/verdicts.ts).
project.addTask('smd:record', {
  description: 'Run every structured-merge-diff suite through the Go oracle and rewrite test/smd/vectors/ (needs Go: bash test/smd/install.sh)',
  exec: 'ts-node --project projenrc/tsconfig.json test/smd/record.ts',
  receiveArgs: true,
});
project.gitattributes.addAttributes('/test/smd/vectors/*.json', 'linguist-generated');
// Ends every jest run that used those verdicts with one line: live, or recorded and why (Go absent).
project.jest?.addReporter(new javascript.JestReporter('<rootDir>/test/smd/reporter.js'));

// The package surface: two entry points (deep imports into lib/ are not API), and only what a consumer needs ships.
// `cdk-capability/runtime` loads and types nothing of aws-cdk-lib, for compositions of cdk8s charts alone.
project.package.addField('exports', {
  '.': { types: './lib/index.d.ts', default: './lib/index.js' },
  './runtime': { types: './lib/runtime.d.ts', default: './lib/runtime.js' },
  './package.json': './package.json',
});
// TypeScript's node10 resolution (cdk8s' and ts-node's default, module CommonJS) reads no `exports`: this maps the subpath.
project.package.addField('typesVersions', { '*': { runtime: ['lib/runtime.d.ts'] } });
project.package.addField('files', ['lib/**/*.js', 'lib/**/*.d.ts', 'lib/bundle.js.map', 'docs/', 'README.md', 'LICENSE']);

// typedoc reads typedoc.jsonc (JSONC so projen's marker can be a comment; typedoc refuses unknown keys).
new JsonFile(project, 'typedoc.jsonc', {
  allowComments: true,
  obj: {
    entryPoints: ['src/index.ts'],
    tsconfig: 'tsconfig.json',
    out: 'docs/api',
    plugin: ['typedoc-plugin-markdown'],
    readme: 'none',
    // Source links carry line numbers, which would churn the committed docs on every edit.
    disableSources: true,
    excludePrivate: true,
    excludeProtected: true,
    excludeInternal: true,
    // Inherited aws-cdk/cdk8s members are documented upstream.
    excludeExternals: true,
    // `compile` type-checks; typedoc only reads the comments.
    skipErrorChecking: true,
    validation: { notExported: true, invalidLink: true, notDocumented: true },
  },
});
const docs = project.addTask('docs', {
  description: 'Generate the API reference from the doc comments into docs/api (committed)',
  exec: 'typedoc', // empties docs/api first (cleanOutputDir)
});
// Regenerated on every build, so a stale reference shows up as a diff (the release task fails on one).
project.postCompileTask.spawn(docs);
project.addTask('docs:check', {
  description: 'Fail when a public member has no doc comment (test/api-docs.test.ts runs it)',
  exec: 'typedoc --emit none --treatValidationWarningsAsErrors --validation.notExported false',
});

project.synth();
