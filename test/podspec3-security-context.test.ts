import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-30';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { RuntimeWriter } from '../src';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * A pod's and a container's security context, as the Kubernetes 1.30 API server validates them.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (`validatePodSpecSecurityContext`,
 * `ValidateSecurityContext`, `validateSeccompProfileField`, `validateLocalDescendingPath`) at the commit
 * `pod-spec-errors.ts` names, and `validation_test.go` `TestValidatePodSpec`'s failure cases "bad supplementalGroups
 * large than math.MaxInt32", "bad supplementalGroups less than 0", "bad runAsUser large than math.MaxInt32", "bad
 * runAsUser less than 0", "bad fsGroup large than math.MaxInt32", "bad fsGroup less than 0" (each one error; the
 * texts are apimachinery's `InclusiveRangeError(0, 2147483647)`), and the seccomp profile cases of
 * `TestValidateSeccompProfileField`'s kind (a missing type, an unknown one, Localhost without a profile, a profile
 * beside another type).
 */

afterAll(removeTempDirs);

const CONTAINER = { name: 'ctr', image: 'image' };
const POD = { at: ['spec'], isPod: true } as const;

/** The API server's errors for a Pod of `spec` (one valid container unless given). */
function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [CONTAINER], ...spec } }, POD).map(apiServerText);
}

describe('TestValidatePodSpec: user and group IDs', () => {
  test.each([
    ['bad supplementalGroups large than math.MaxInt32', { supplementalGroups: [2147483648, 1234] }, 'spec.securityContext.supplementalGroups[0]: Invalid value: 2147483648'],
    ['bad supplementalGroups less than 0', { supplementalGroups: [-1, 1234] }, 'spec.securityContext.supplementalGroups[0]: Invalid value: -1'],
    ['bad runAsUser large than math.MaxInt32', { runAsUser: 2147483648 }, 'spec.securityContext.runAsUser: Invalid value: 2147483648'],
    ['bad runAsUser less than 0', { runAsUser: -1 }, 'spec.securityContext.runAsUser: Invalid value: -1'],
    ['bad fsGroup large than math.MaxInt32', { fsGroup: 2147483648 }, 'spec.securityContext.fsGroup: Invalid value: 2147483648'],
    ['bad fsGroup less than 0', { fsGroup: -1 }, 'spec.securityContext.fsGroup: Invalid value: -1'],
    ['a runAsGroup less than 0', { runAsGroup: -1 }, 'spec.securityContext.runAsGroup: Invalid value: -1'],
  ])('%s', (_name, securityContext, text) => {
    expect(errorsOf({ securityContext })).toEqual([`${text}: must be between 0 and 2147483647, inclusive`]);
  });

  test("a container's runAsUser and runAsGroup too (ValidateSecurityContext)", () => {
    expect(errorsOf({ containers: [{ ...CONTAINER, securityContext: { runAsUser: -5, runAsGroup: 4294967295 } }] })).toEqual([
      'spec.containers[0].securityContext.runAsUser: Invalid value: -5: must be between 0 and 2147483647, inclusive',
      'spec.containers[0].securityContext.runAsGroup: Invalid value: 4294967295: must be between 0 and 2147483647, inclusive',
    ]);
  });

  test('0 (root) and 2147483647 pass, and a value of another JSON type is left to scalar-types', () => {
    expect(errorsOf({ securityContext: { runAsUser: 0, runAsGroup: 2147483647, fsGroup: 0, supplementalGroups: [0, 2147483647] } })).toEqual([]);
    expect(errorsOf({ securityContext: { runAsUser: '-1', supplementalGroups: '1' } })).toEqual([]);
  });
});

describe('validateSeccompProfileField', () => {
  test.each([
    ['no type', { seccompProfile: {} }, ['spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set']],
    ['an unknown type', { seccompProfile: { type: 'runtime/default' } }, ['spec.securityContext.seccompProfile.type: Unsupported value: "runtime/default": supported values: "Localhost", "RuntimeDefault", "Unconfined"']],
    ['Localhost without a profile', { seccompProfile: { type: 'Localhost' } }, ['spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost']],
    ['Localhost with an absolute profile', { seccompProfile: { type: 'Localhost', localhostProfile: '/var/lib/kubelet/seccomp/a.json' } }, [
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: "/var/lib/kubelet/seccomp/a.json": must be a relative path',
    ]],
    ['Localhost with a profile out of its directory', { seccompProfile: { type: 'Localhost', localhostProfile: '../a.json' } }, [
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: "../a.json": must not contain \'..\'',
    ]],
    ['a profile beside RuntimeDefault (the API server prints a pointer whose address varies)', { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'a.json' } }, [
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{Type:"RuntimeDefault", LocalhostProfile:(*string)(0x…)}: can only be set when seccomp type is Localhost',
    ]],
  ])('%s', (_name, securityContext, expected) => {
    expect(errorsOf({ securityContext })).toEqual(expected);
  });

  test("a container's profile too, and the valid ones pass", () => {
    expect(errorsOf({ containers: [{ ...CONTAINER, securityContext: { seccompProfile: { type: 'Localhost' } } }] })).toEqual([
      'spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
    ]);
    expect(errorsOf({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ ...CONTAINER, securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/a..b.json' } } }] })).toEqual([]);
  });

  test('the published schema takes what the rule refuses', () => {
    expect(() => new Pod({ metadata: { name: 'p' }, spec: { containers: [CONTAINER], securityContext: { runAsUser: -1, seccompProfile: { type: 'Localhost' } } } }).validate()).not.toThrow();
  });
});

describe('in a synth', () => {
  test('a negative user ID in a cdk8s-plus Deployment is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new kplus.Deployment(chart, 'Web', {
      metadata: { name: 'web', namespace: 'shop' },
      securityContext: { user: -1, ensureNonRoot: false },
      containers: [{ name: 'web', image: 'web:1', securityContext: { ensureNonRoot: false } }],
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.securityContext.runAsUser' (-1) of apps/Deployment shop/web declared by 'shop/Routing/Web' must be a user ID: a number from 0 to 2147483647; the API server refuses it: spec.template.spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive. Write a number from 0 to 2147483647 (0 is root; an unprivileged ID is 1000 or more), or drop it for the image's own.",
    ]);
  });

  test('a seccomp profile a RuntimeWriter writes is left unjudged', () => {
    const { app, chart } = routing();
    const pod = new ApiObject(chart, 'Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { containers: [CONTAINER], securityContext: { seccompProfile: { type: 'Localhost' } } } });
    new RuntimeWriter(chart, 'Profiles', { target: pod, fields: ['spec.securityContext.seccompProfile.localhostProfile'], identity: 'system:serviceaccount:ops:profiler' });

    expect(podSpecFindings(app)).toEqual([]);
  });
});

describe('properties', () => {
  test('security contexts made valid give no error', () => {
    const id = fc.integer({ min: 0, max: 2147483647 });
    const seccomp = fc.oneof(
      fc.record({ type: fc.constantFrom('RuntimeDefault', 'Unconfined') }),
      fc.record({ type: fc.constant('Localhost'), localhostProfile: fc.stringMatching(/^[a-z0-9_.-]+(\/[a-z0-9_-][a-z0-9_.-]*)*$/).filter((p) => !p.split('/').includes('..')) }),
    );
    const sc = fc.record(
      { runAsUser: id, runAsGroup: id, fsGroup: id, supplementalGroups: fc.array(id, { maxLength: 3 }), seccompProfile: seccomp },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(sc, sc, (pod, ctr) => {
      const { runAsUser, runAsGroup, seccompProfile } = ctr;
      const container = { ...CONTAINER, securityContext: { runAsUser, runAsGroup, seccompProfile } };
      expect(errorsOf({ securityContext: pod, containers: [container] })).toEqual([]);
    }));
  });

  test('any JSON as a security context or seccomp profile gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      expect(() => errorsOf({ securityContext: a, containers: [{ ...CONTAINER, securityContext: { seccompProfile: b, runAsUser: a } }] }))
        .not.toThrow();
      expect(() => errorsOf({ securityContext: { seccompProfile: { type: a, localhostProfile: b }, supplementalGroups: a } })).not.toThrow();
    }), { numRuns: 300 });
  });
});
