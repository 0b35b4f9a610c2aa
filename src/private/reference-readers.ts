import type { CfnElement, IResolvable, IResolveContext, ITokenResolver, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { awsCdk, isStage } from './aws-cdk';
import { elementTemplateOf, UpstreamShapeError } from './upstream-state';

/** A CloudFormation element of one stack that reads an attribute of a resource of another stack. */
export interface ReferenceReader {
  /** The element that reads it (`files/Base/Role/DefaultPolicy/Resource`). */
  readonly reader: CfnElement;
  /** What it reads, as aws-cdk names a reference (`files/acme/Queue/Resource.Arn`). */
  readonly reads: string;
}

/**
 * The CloudFormation elements of `consumer` (not of a stage nested in it) that
 * read an attribute of a resource of `producer`: what makes aws-cdk add the
 * stack dependency of `consumer` on `producer` for a cross-stack reference.
 * Found as aws-cdk finds them, by resolving each element's template with a
 * resolver that remembers the tokens; in tree order.
 */
export function referenceReaders(consumer: Stack, producer: Stack): ReferenceReader[] {
  const cdk = awsCdk();
  const found: ReferenceReader[] = [];
  for (const element of consumer.node.findAll()) {
    if (!cdk.CfnElement.isCfnElement(element) || !directlyIn(consumer, element)) continue;
    const tokens: IResolvable[] = [];
    const resolver = rememberingResolver(tokens);
    try {
      cdk.Tokenization.resolve(elementTemplateOf(element), { scope: element, resolver, preparing: true });
    } catch (e) {
      if (e instanceof UpstreamShapeError) throw e;
      continue; // an element that cannot render now reads nothing that can be named
    }
    const reads = new Set<string>();
    for (const token of tokens) {
      if (!cdk.Reference.isReference(token) || cdk.Stack.of(token.target) !== producer) continue;
      reads.add(`${token.target.node.path}.${token.displayName}`);
    }
    for (const r of reads) found.push({ reader: element, reads: r });
  }
  return found;
}

/** aws-cdk's default resolver, remembering in `tokens` every token it resolves. */
function rememberingResolver(tokens: IResolvable[]): ITokenResolver {
  const cdk = awsCdk();
  const base = new cdk.DefaultTokenResolver(new cdk.StringConcat());
  return {
    resolveToken(t: IResolvable, context: IResolveContext, postProcessor) {
      tokens.push(t);
      return base.resolveToken(t, context, postProcessor);
    },
    resolveString: (s, context) => base.resolveString(s, context),
    resolveList: (l, context) => base.resolveList(l, context),
  };
}

/** True when `c` is inside `stack`, not inside a stack or stage nested in it. */
function directlyIn(stack: Stack, c: IConstruct): boolean {
  for (let s = c.node.scope; s; s = s.node.scope) {
    if (s === stack) return true;
    if (isStage(s) || awsCdk().Stack.isStack(s)) return false;
  }
  return false;
}
