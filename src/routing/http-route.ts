import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { gatewayApi } from '../private/lazy';
import { rendersSortedAsDeclared } from '../private/upstream-state';

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
 * A Gateway API `HTTPRoute` (`gateway.networking.k8s.io/v1`) that renders what
 * the generated class of `cdk8s import` (`imports/httproute-gateway...`)
 * renders, byte for byte, without loading that module (8,000 lines) or running
 * its serializer for every route.
 *
 * The generated `toJson()` passes cdk8s' render through `toJson_HttpRouteProps`,
 * which rebuilds every object of the schema with its keys in the schema's order
 * and leaves out the keys the schema does not have. For the objects a tenant
 * route declares that changes nothing, as long as cdk8s' render is its declared
 * props with the keys sorted: the generated schema lists every key in
 * alphabetical order, and the route declares only keys of the schema. So the
 * render is taken as it is when keys are sorted (`CDK8S_DISABLE_SORT` unset),
 * the app resolves with cdk8s' built-in resolvers alone, and the object has no
 * JSON patch (a `Contribution` or `addJsonPatch`, which may add a key the schema
 * does not have, or a map in another order); otherwise it goes through the
 * generated serializer, as before. `test/http-route.test.ts` holds the two to
 * the same JSON text.
 */
export class HttpRoute extends ApiObject {
  /**
   * @param scope the chart (or a construct in it)
   * @param id the construct id
   * @param props the route's metadata and spec
   */
  public constructor(scope: Construct, id: string, props: HttpRouteProps) {
    super(scope, id, { ...GVK, ...props });
  }

  /** Renders the object as the generated `HttpRoute` class renders it. */
  public override toJson(): any {
    const resolved = super.toJson();
    if (rendersSortedAsDeclared(this)) return resolved;
    return { ...GVK, ...gatewayApi().toJson_HttpRouteProps(resolved) };
  }
}
