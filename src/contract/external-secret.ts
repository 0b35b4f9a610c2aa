import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { externalSecrets } from '../private/lazy';
import { rendersSortedAsDeclared } from '../private/upstream-state';

/** The group, version and kind of an External Secrets `ExternalSecret`, as the generated class has them. */
const GVK = { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret' } as const;

/** What a contract's binding declares: `metadata` and the `spec` fields of the `ExternalSecret` schema it sets. */
export interface ExternalSecretProps {
  readonly metadata: ApiObjectMetadata;
  readonly spec: {
    readonly refreshInterval: string;
    readonly secretStoreRef: { readonly kind: 'SecretStore' | 'ClusterSecretStore'; readonly name: string };
    readonly target: { readonly name: string; readonly creationPolicy: 'Owner' };
    readonly dataFrom: ReadonlyArray<{ readonly extract: { readonly key: string } }>;
  };
}

/**
 * An External Secrets `ExternalSecret` (`external-secrets.io/v1`) that renders
 * what the generated class of `cdk8s import` (`imports/externalsecret-...`)
 * renders, byte for byte, without loading that module unless it must.
 *
 * The generated `toJson()` passes cdk8s' render through
 * `toJson_ExternalSecretProps`, which rebuilds every object of the schema with
 * its keys in the schema's order, alphabetical, and leaves out the keys the
 * schema does not have; a binding declares keys of the schema only. So cdk8s'
 * render is taken as it is when it sorts keys and holds the declaration alone
 * (`rendersSortedAsDeclared`: no JSON patch, cdk8s' built-in resolvers,
 * `CDK8S_DISABLE_SORT` unset), and otherwise goes through the generated
 * serializer, as before (`test/external-secret.test.ts` holds the two to the
 * same JSON text).
 */
export class ExternalSecret extends ApiObject {
  /**
   * @param scope the chart (or a construct in it)
   * @param id the construct id
   * @param props the binding's metadata and spec
   */
  public constructor(scope: Construct, id: string, props: ExternalSecretProps) {
    super(scope, id, { ...GVK, ...props });
  }

  /** Renders the object as the generated `ExternalSecret` class renders it. */
  public override toJson(): any {
    const resolved = super.toJson();
    if (rendersSortedAsDeclared(this)) return resolved;
    return { ...GVK, ...externalSecrets().toJson_ExternalSecretProps(resolved) };
  }
}
