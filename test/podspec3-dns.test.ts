import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import { Pod } from 'kubernetes-models/v1';
import { podSpecFindings, routing } from './pod-spec-fixtures';
import { removeTempDirs } from './util';
import { RuntimeWriter } from '../src';
import { apiServerText, podSpecErrors } from '../src/check/rules/pod-spec-errors';

/*
 * A pod of `dnsPolicy: None` without nameservers, as the Kubernetes 1.30 API server validates it.
 *
 * Provenance: kubernetes/kubernetes `pkg/apis/core/validation/validation.go` `validatePodDNSConfig` at the commit
 * `pod-spec-errors.ts` names (its DNSNone case returns its one error alone): the texts are validation.go's; the cases
 * are written here from it, not ported from validation_test.go (not read for lack of time).
 */

afterAll(removeTempDirs);

const CONTAINER = { name: 'ctr', image: 'image' };

function errorsOf(spec: Record<string, unknown>): string[] {
  return podSpecErrors({ spec: { containers: [CONTAINER], ...spec } }, { at: ['spec'], isPod: true }).map(apiServerText);
}

describe('TestValidatePodDNSConfig: dnsPolicy None', () => {
  test.each([
    ['no dnsConfig', { dnsPolicy: 'None' }, ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
    ['no nameservers', { dnsPolicy: 'None', dnsConfig: { searches: ['svc.cluster.local'] } }, [
      'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
    ]],
    ['an empty nameservers list', { dnsPolicy: 'None', dnsConfig: { nameservers: [] } }, [
      'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
    ]],
  ])('%s', (_name, spec, expected) => {
    expect(errorsOf(spec)).toEqual(expected);
  });

  test('a nameserver, another policy, or no policy (ClusterFirst) passes', () => {
    expect(errorsOf({ dnsPolicy: 'None', dnsConfig: { nameservers: ['10.0.0.10'] } })).toEqual([]);
    expect(errorsOf({ dnsPolicy: 'ClusterFirst' })).toEqual([]);
    expect(errorsOf({ dnsConfig: { searches: ['a.example'] } })).toEqual([]);
  });

  test('the published schema takes what the rule refuses', () => {
    expect(() => new Pod({ metadata: { name: 'p' }, spec: { containers: [CONTAINER], dnsPolicy: 'None' } }).validate()).not.toThrow();
  });
});

describe('in a synth', () => {
  test('a Deployment of dnsPolicy None without dnsConfig is refused, with how to fix it', () => {
    const { app, chart } = routing();
    new ApiObject(chart, 'Web', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { dnsPolicy: 'None', containers: [CONTAINER] } } },
    });

    expect(podSpecFindings(app)).toEqual([
      "CAP010 invalid object: 'spec.template.spec.dnsConfig' of apps/Deployment shop/web declared by 'shop/Routing/Web' is missing: a pod of dnsPolicy: None resolves names only through its dnsConfig's nameservers; the API server refuses it: spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None. Give it dnsConfig: { nameservers: ['10.0.0.10'] } (one to three), or drop dnsPolicy for the cluster's DNS (ClusterFirst).",
    ]);
  });

  test('a dnsConfig a RuntimeWriter writes is left unjudged', () => {
    const { app, chart } = routing();
    const pod = new ApiObject(chart, 'Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { dnsPolicy: 'None', containers: [CONTAINER] } });
    new RuntimeWriter(chart, 'Dns', { target: pod, fields: ['spec.dnsConfig'], identity: 'system:serviceaccount:ops:dns' });

    expect(podSpecFindings(app)).toEqual([]);
  });
});

describe('properties', () => {
  test('a None policy with one to three nameservers gives no error', () => {
    const ip = fc.ipV4();
    fc.assert(fc.property(fc.array(ip, { minLength: 1, maxLength: 3 }), (nameservers) => {
      expect(errorsOf({ dnsPolicy: 'None', dnsConfig: { nameservers } })).toEqual([]);
    }));
  });

  test('any JSON as a dnsConfig gives errors, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      expect(() => errorsOf({ dnsPolicy: 'None', dnsConfig: a })).not.toThrow();
      expect(() => errorsOf({ dnsPolicy: a, dnsConfig: { nameservers: b } })).not.toThrow();
    }), { numRuns: 300 });
  });
});
