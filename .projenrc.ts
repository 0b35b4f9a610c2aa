import { javascript, typescript } from 'projen';

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
  peerDeps: ['constructs@^10.0.0', 'cdk8s@^2.68.0', 'cdk8s-plus-30@^2.2.5', 'aws-cdk-lib@^2.200.0'],
  // Pinned dev copies of the peers so tests run against one known version.
  devDeps: [
    'constructs@10.8.1',
    'cdk8s@2.70.106',
    'cdk8s-plus-30@2.4.10',
    'aws-cdk-lib@2.276.0',
    // The real CLIs, run by tests against our output.
    'cdk8s-cli@2.207.60',
    'aws-cdk@2.1148.1',
    // Published Kubernetes schemas to validate our manifests against things we did not write.
    'kubernetes-models@^4.5.1',
    // Property-based tests for the graph and the ledger.
    'fast-check@^4.3.0',
    '@types/semver',
  ],
  // yaml: a maintained YAML 1.2 writer with deterministic output; semver: the reference semver implementation.
  deps: ['yaml@^2.6.0', 'semver@^7.6.0'],

  tsconfig: {
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: false,
      lib: ['es2022'],
      target: 'ES2022',
    },
  },
  tsconfigDev: {
    include: ['examples/**/*.ts', 'bench/**/*.ts'],
    exclude: ['examples/**/dist/**', 'examples/**/imports/**'],
  },

  jestOptions: {
    // Snapshots are never rewritten by the test task: a changed output must fail.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      // Coverage instrumentation doubles the suite's time; run `npx jest --coverage` when wanted.
      collectCoverage: false,
      testTimeout: 120_000,
      maxWorkers: 2,
      testPathIgnorePatterns: ['/node_modules/', '/test/fixtures/', '/examples/'],
    },
    // jest writes its totals as JSON so .ci/run can print `N passed, N failed`.
    extraCliOptions: ['--json', '--outputFile=test-reports/jest-results.json'],
  },

  gitignore: ['/dist/', 'examples/**/dist/', '/test-reports/', '*.tgz', '/.capability-*'],
  npmignoreEnabled: true,
  githubOptions: { mergify: false },
  depsUpgrade: false,
  pullRequestTemplate: false,
  release: true,
  releaseToNpm: true,
  npmProvenance: true,
});

// The bundled example, synthesized by the real cdk8s CLI; no cloud account needed.
project.addTask('example', {
  description: 'Synthesize examples/cdn with `cdk8s synth` into examples/cdn/dist',
  cwd: 'examples/cdn',
  exec: 'cdk8s synth',
});

project.synth();
