import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { GeneratedKindObject } from '../private/generated-kind-object';
import { gatewayApi } from '../private/lazy';

/** The group, version and kind of a Gateway API route, as the generated `HttpRoute` class has them. */
const GVK = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' } as const;

/** What a tenant route declares: `metadata` and a `spec` of the `HTTPRoute` schema (the fields the route sets). */
export interface HttpRouteProps {
  readonly metadata: ApiObjectMetadata;
  readonly spec: {
    readonly parentRefs: ReadonlyArray<{ readonly name: string; readonly namespace?: string; readonly sectionName?: string }>;
    readonly hostnames?: readonly string[];
    readonly rules: ReadonlyArray<{ readonly matches: unknown; readonly backendRefs: ReadonlyArray<Record<string, unknown>> }>;
  };
}

/**
 * A Gateway API `HTTPRoute` (`gateway.networking.k8s.io/v1`) rendered byte for byte as the generated class of `cdk8s import`
 * (`imports/httproute-gateway...`, 8,000 lines) renders it, without loading that module unless its serializer must run
 * (`GeneratedKindObject`). `test/http-route.test.ts` holds the two to the same JSON text.
 */
export class HttpRoute extends GeneratedKindObject {
  /**
   * @param scope the chart (or a construct in it)
   * @param id the construct id
   * @param props the object's metadata and spec
   */
  public constructor(scope: Construct, id: string, props: HttpRouteProps) {
    super(scope, id, GVK, props);
  }

  protected generatedSerializer(): (props: any) => Record<string, any> | undefined {
    return gatewayApi().toJson_HttpRouteProps;
  }
}
