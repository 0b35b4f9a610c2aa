import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { rendersSortedAsDeclared } from './upstream-state';

/** The group, version and kind of a generated class. */
export interface GroupVersionKind {
  readonly apiVersion: string;
  readonly kind: string;
}

/**
 * An object of a kind `cdk8s import` generated a class for, rendered byte for
 * byte as that class renders it without loading its module unless it must.
 *
 * A generated class's `toJson()` passes cdk8s' render through its
 * `toJson_<Kind>Props`, which rebuilds every object of the schema with its keys
 * in the schema's order (alphabetical in the generated files) and leaves out the
 * keys the schema does not have. For an object that declares keys of the schema
 * only, that changes nothing as long as cdk8s' render is the declaration with
 * its keys sorted (`rendersSortedAsDeclared`: no JSON patch, which may add a key
 * the schema lacks; cdk8s' built-in resolvers; `CDK8S_DISABLE_SORT` unset). So
 * the render is taken as it is then, and otherwise goes through the generated
 * serializer, loaded on first use.
 */
export abstract class GeneratedKindObject extends ApiObject {
  /**
   * @param scope the chart (or a construct in it)
   * @param id the construct id
   * @param gvk the generated class's group, version and kind
   * @param props the object's metadata and the fields it declares
   */
  protected constructor(scope: Construct, id: string, private readonly gvk: GroupVersionKind, props: object) {
    super(scope, id, { ...gvk, ...props });
  }

  /** Renders the object as the generated class renders it. */
  public override toJson(): any {
    const resolved = super.toJson();
    if (rendersSortedAsDeclared(this)) return resolved;
    return { ...this.gvk, ...this.generatedSerializer()(resolved) };
  }

  /** The generated `toJson_<Kind>Props` of the kind, its module loaded on first use. */
  protected abstract generatedSerializer(): (props: any) => Record<string, any> | undefined;
}
