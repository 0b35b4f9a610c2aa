import * as fs from 'fs';
import * as path from 'path';
import { CapabilityApp, CapabilityAppProps } from './app/capability-app';
import type { Violation } from './check/finding';
import { constructionRefusal, MISPLACED_CONSTRUCT } from './private/misplaced';
import { privateTempDir } from './private/scratch';
import { valueText } from './private/value-text';
import type { InterfaceArtifact } from './release/interface-record';
import { textOf } from './render/file-content';
import type { OutputTree } from './render/output-tree';
import type { Plan } from './render/writers/plan-json';

/** What `CapabilityTesting.synth` returns: the synth's outcome, parsed for assertions. */
export interface CapabilityTestResult {
  /** Every violation, sorted by code then message; empty when the composition is accepted. */
  readonly violations: Violation[];

  /** Findings that do not refuse the composition (a possible secret in a manifest), sorted. */
  readonly warnings: Violation[];

  /** The plan that `plan.json` would hold; undefined when the composition is refused. */
  readonly plan?: Plan;

  /** The Kubernetes manifests in apply order, as they would be written under `runtime/`; empty when refused. */
  readonly runtimeObjects: any[];

  /**
   * The CloudFormation template of each deployment-time stack, by the stack's
   * construct path (for example `cdn/Base`); empty when refused.
   *
   * Pass one to `Template.fromJSON` (`aws-cdk-lib/assertions`) to assert on it.
   */
  readonly templates: Record<string, any>;

  /** The parsed `interface.json`; undefined when refused. */
  readonly interface?: InterfaceArtifact;
}

/**
 * Helpers for testing a capability with jest (or any test runner): synthesize
 * in memory and assert on the violations, manifests and templates, without
 * writing an output folder and without catching a `CompositionError`.
 *
 * @example
 * const app = CapabilityTesting.app();
 * new CdnCapability(app, 'cdn');
 * const result = CapabilityTesting.synth(app);
 * expect(result.violations).toEqual([]);
 * expect(result.runtimeObjects.map((o) => o.kind)).toContain('Namespace');
 */
export class CapabilityTesting {
  /**
   * A `CapabilityApp` whose outdir is a fresh temporary folder, removed when
   * the process exits, so a test that calls `app.synth()` never writes into
   * the project. A process that exits without running its exit handlers (a
   * Jest test file, a killed run) leaves its folders; the next process's first
   * `app()` removes them (those of processes that are certainly gone). It reads no lock unless given one (`lockFile`): a
   * `capability.lock.json` in the working directory (the app's own) is not
   * this test's previous release.
   *
   * @param props app options; an `outdir` or `lockFile` given here is kept
   * @returns the new app
   */
  public static app(props: CapabilityAppProps = {}): CapabilityApp {
    const scratch = props.outdir === undefined || props.lockFile === undefined ? privateTempDir('cdk-capability-testing-') : undefined;
    return new CapabilityApp({
      ...props,
      outdir: props.outdir ?? path.join(scratch!, 'dist'),
      // a path in a fresh folder holds no lock: a first release
      lockFile: props.lockFile ?? path.join(scratch!, 'capability.lock.json'),
    });
  }

  /**
   * Collects, checks and renders `app` in memory. Nothing is written and a
   * refused composition does not throw: its violations are in the result.
   *
   * @param app the app to synthesize
   * @throws CompositionError `CAP015` when `app` is not a `CapabilityApp`
   * @returns the violations and, when there are none, the plan, manifests, templates and interface
   */
  public static synth(app: CapabilityApp): CapabilityTestResult {
    // from JavaScript, anything: a plain cdk8s App, a chart or undefined would crash on app.synthesize
    if (!CapabilityApp.isCapabilityApp(app)) {
      throw constructionRefusal(
        MISPLACED_CONSTRUCT,
        `misplaced construct: CapabilityTesting.synth takes a CapabilityApp, but was given ${valueText(app)}. `
          + 'Pass the app at the root of the composition, made with CapabilityTesting.app() (or new CapabilityApp()).',
      );
    }
    const result = app.synthesize();
    const output = result.output;
    const templates: Record<string, any> = {};
    if (output) {
      for (const stack of result.facts?.stacks ?? []) {
        const template = stack.templateFile && readJson(output, `deploy/${stack.templateFile}`);
        if (template !== undefined) templates[stack.path] = template;
      }
    }
    return {
      violations: result.violations,
      warnings: result.warnings,
      plan: result.plan,
      runtimeObjects: (result.runtimeFiles ?? []).flatMap((f) => f.objects.map((o) => o.manifest)),
      templates,
      interface: output ? readJson(output, 'interface.json') : undefined,
    };
  }

  private constructor() {}
}

/** A JSON file of the output, generated or copied; undefined when it is not there. */
function readJson(output: OutputTree, relative: string): any {
  const generated = output.files.get(relative);
  if (generated !== undefined) return JSON.parse(textOf(generated));
  const source = output.copies.get(relative);
  return source !== undefined && fs.existsSync(source) ? JSON.parse(fs.readFileSync(source, 'utf-8')) : undefined;
}

