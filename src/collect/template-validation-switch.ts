/**
 * Whether aws-cdk's built-in template validator runs, as aws-cdk decides it for an `App`: the app's prop
 * (`builtinCloudFormationValidation`), and `CDK_VALIDATION` not `false`.
 *
 * @param appProp the app's prop, if it was given
 */
export function templateValidationEnabled(appProp: boolean | undefined): boolean {
  return appProp !== false && process.env.CDK_VALIDATION !== 'false';
}
