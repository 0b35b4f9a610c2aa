import { aws_cloudfront as cloudfront, aws_cloudfront_origins as origins } from 'aws-cdk-lib';
import { Capability, CapabilityApp, Field, InterfaceContract, RuntimeRouting, SharedBase, Violation } from '../src';
import { newApp } from './util';

/** The fields of the CDN edge contract the interface tests share. */
export const EDGE_FIELDS = {
  originDnsName: Field.dnsName({ description: 'DNS name of the edge distribution' }),
  tenantHeader: Field.string(),
};

/** A CDN capability with its contract, shared base (holding a CloudFront distribution) and runtime routing. */
export interface EdgeComposition {
  readonly app: CapabilityApp;
  readonly cdn: Capability;
  readonly edge: InterfaceContract<typeof EDGE_FIELDS>;
  readonly base: SharedBase;
  readonly distribution: cloudfront.Distribution;
  readonly routing: RuntimeRouting;
}

/** Options of `edgeComposition`. */
export interface EdgeCompositionOptions {
  /** @default '1.2.0' */
  readonly version?: string;
  /** @default 'Edge' */
  readonly contractId?: string;
  /** @default - the library's default */
  readonly parameterPrefix?: string;
  /** @default - a new app writing to a fresh temporary folder */
  readonly app?: CapabilityApp;
}

/**
 * GIVEN-side helper: capability `cdn` with contract `Edge` (version 1.2.0 unless
 * told), a `SharedBase` `Base` holding a CloudFront distribution `Dist`, and a
 * `RuntimeRouting` `Routing`. Nothing is published or consumed yet.
 */
export function edgeComposition(options: EdgeCompositionOptions = {}): EdgeComposition {
  const app = options.app ?? newApp();
  const cdn = new Capability(app, 'cdn');
  const edge = new InterfaceContract(cdn, options.contractId ?? 'Edge', {
    version: options.version ?? '1.2.0',
    fields: EDGE_FIELDS,
    parameterPrefix: options.parameterPrefix,
  });
  const base = new SharedBase(cdn, 'Base');
  const distribution = new cloudfront.Distribution(base, 'Dist', {
    defaultBehavior: { origin: new origins.HttpOrigin('origin.example.com') },
  });
  const routing = new RuntimeRouting(cdn, 'Routing');
  return { app, cdn, edge, base, distribution, routing };
}

/** The violations reduced to what the tests compare: code, message and paths. */
export function summary(violations: readonly Violation[]): Array<{ code: string; message: string; paths: string[] }> {
  return violations.map((v) => ({ code: v.code, message: v.message, paths: v.paths }));
}

/** Every Kubernetes manifest of a synth result, in apply order. */
export function manifestsOf(result: { runtimeFiles?: Array<{ objects: Array<{ manifest: any }> }> }): any[] {
  if (!result.runtimeFiles) throw new Error('the synth was refused: no runtime files');
  return result.runtimeFiles.flatMap((f) => f.objects.map((o) => o.manifest));
}

/** The manifests of one kind. */
export function manifestsOfKind(result: { runtimeFiles?: Array<{ objects: Array<{ manifest: any }> }> }, kind: string): any[] {
  return manifestsOf(result).filter((m) => m.kind === kind);
}
