import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { GeneratedKindObject } from '../private/generated-kind-object';
import { externalSecrets } from '../private/lazy';

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
 * An External Secrets `ExternalSecret` (`external-secrets.io/v1`) rendered byte for byte as the generated class of `cdk8s import`
 * (`imports/externalsecret-...`) renders it, without loading that module unless its serializer must run
 * (`GeneratedKindObject`). `test/external-secret.test.ts` holds the two to the same JSON text.
 */
export class ExternalSecret extends GeneratedKindObject {
  /**
   * @param scope the chart (or a construct in it)
   * @param id the construct id
   * @param props the object's metadata and spec
   */
  public constructor(scope: Construct, id: string, props: ExternalSecretProps) {
    super(scope, id, GVK, props);
  }

  protected generatedSerializer(): (props: any) => Record<string, any> | undefined {
    return externalSecrets().toJson_ExternalSecretProps;
  }
}
