import { DefaultTokenResolver, IResolvable, IResolveContext, IPostProcessor, StringConcat, Tokenization } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';

/** What `visitTokens` does with a token: `stop` resolves it no further (its parts are not visited). */
export type TokenVisit = 'stop' | 'descend';

/** The text a stopped token resolves to; never written anywhere. */
const STOPPED = 'cdk-capability:stopped-token';

/** A token resolver that shows every token to `visit` before it is resolved. */
class VisitingResolver extends DefaultTokenResolver {
  constructor(private readonly visit: (token: IResolvable) => TokenVisit) {
    super(new StringConcat());
  }

  public resolveToken(t: IResolvable, context: IResolveContext, postProcessor: IPostProcessor): any {
    if (this.visit(t) === 'stop') return STOPPED;
    try {
      return super.resolveToken(t, context, postProcessor);
    } catch {
      // a token that cannot resolve here (a guarded SecretValue, a Lazy that needs a stack) has no parts to show
      return STOPPED;
    }
  }
}

/**
 * Shows `visit` every aws-cdk token `value` is made of, outermost first,
 * descending into each token's resolved parts (an `Fn.join` into its list,
 * a `Token.asList` into its string) until `visit` says `stop`. Resolves only
 * to look: nothing is prepared, exported or changed, and a token that cannot
 * resolve in `scope` is shown but not descended into.
 *
 * @param scope the construct to resolve in (a stack, for stack-relative tokens)
 * @returns the value as resolved, stopped tokens as a placeholder
 */
export function visitTokens(value: unknown, scope: IConstruct, visit: (token: IResolvable) => TokenVisit): unknown {
  try {
    return Tokenization.resolve(value, { scope, resolver: new VisitingResolver(visit), preparing: false });
  } catch {
    return undefined;
  }
}
