// Run before every test file (jest `setupFiles`, set in .projenrc.ts): aws-cdk's built-in CloudFormation
// template validator costs seconds per synth, so the suite keeps it off, as aws-cdk's own switch does.
// test/cloudformation-validator.test.ts turns it on for the one test that runs it.
process.env.CDK_VALIDATION = 'false';
