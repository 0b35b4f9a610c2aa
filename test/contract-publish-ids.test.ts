import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Capability, CapabilityApp, CompositionError, Field, InterfaceContract, SharedBase } from '../src';
import { removeTempDirs, tempDir } from './util';

afterAll(removeTempDirs);

// The SSM parameter `publish` creates has the id `<contract id>Interface` in the publishing stack (its reader policy
// `<contract id>InterfaceReader`). Found by the advice2 trial: two packages' capabilities each with a contract 'Queue',
// one published from the other's SharedBase, crashed inside constructs ("There is already a Construct with name
// 'QueueInterface' in SharedBase [Base]") before synth could say what was wrong.

/** Two capabilities 'jobs' and 'mail', each with a contract 'Queue' of one field; the SharedBase of 'jobs'. */
function twoQueues() {
  const app = new CapabilityApp({ outdir: path.join(tempDir(), 'dist') });
  const jobs = new Capability(app, 'jobs');
  const mail = new Capability(app, 'mail');
  const base = new SharedBase(jobs, 'Base');
  const fields = { url: Field.string() };
  return {
    app,
    base,
    jobsQueue: new InterfaceContract(jobs, 'Queue', { version: '1.0.0', fields }),
    mailQueue: new InterfaceContract(mail, 'Queue', { version: '1.0.0', fields }),
  };
}

describe('the ids publish gives the parameter and its reader policy', () => {
  test("a contract of the same name published from another capability's stack is the synth's CAP009, not a crash, and creates nothing there", () => {
    // GIVEN 'jobs/Queue' published from its own SharedBase, then 'mail/Queue' from the same stack
    const { app, base, jobsQueue, mailQueue } = twoQueues();
    jobsQueue.publish(base, { url: 'https://jobs.example.com' });

    // WHEN 'mail/Queue' is published there too, and the app synthesized
    const publication = mailQueue.publish(base, { url: 'https://mail.example.com' });
    const { violations } = app.synthesize();

    // THEN the one refusal names the contract, the stack and the fix; the stack holds only the parameter of 'jobs/Queue'
    expect(publication.parameter).toBeUndefined();
    expect(violations.map((v) => [v.code, v.message, v.paths])).toEqual([[
      'CAP009',
      "contract misuse: 'mail/Queue' is published by 'jobs/Base', which is not in capability 'mail'. Publish from its SharedBase or one of its DeploymentAggregates.",
      ['jobs/Base', 'mail/Queue'],
    ]]);
    const parameters = Template.fromStack(base).findResources('AWS::SSM::Parameter');
    expect(Object.values(parameters).map((p: any) => p.Properties.Name)).toEqual(['/cdk-capability/jobs/queue/v1']);
  });

  test('an id the program already gave a construct of the stack is CAP009 at publish, naming the stack, the id and the fix', () => {
    // GIVEN the SharedBase of 'jobs' already holding a construct with the id 'QueueInterface', then one with 'QueueInterfaceReader'
    const { base, jobsQueue } = twoQueues();
    new ssm.StringParameter(base, 'QueueInterface', { stringValue: 'mine' });

    // WHEN 'jobs/Queue' is published from it
    const refusal = () => jobsQueue.publish(base, { url: 'https://jobs.example.com' });

    // THEN a coded refusal, thrown where publish is called
    expect(refusal).toThrow(CompositionError);
    expect(refusal).toThrow(
      "CAP009 contract misuse: publish of 'jobs/Queue': 'jobs/Base' already has a construct with the id 'QueueInterface', which publish gives the contract's parameter: give that construct another id",
    );
    base.node.tryRemoveChild('QueueInterface');
    new ssm.StringParameter(base, 'QueueInterfaceReader', { stringValue: 'mine' });
    expect(refusal).toThrow("'jobs/Base' already has a construct with the id 'QueueInterfaceReader', which publish gives the contract's reader policy: give that construct another id");
  });
});
