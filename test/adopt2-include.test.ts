import * as path from 'path';
import { cloudformation_include as cfninc } from 'aws-cdk-lib';
import { Include } from 'cdk8s';
import { Capability, CapabilityTesting, Contribution, RuntimeRouting, SharedBase } from '../src';
import { includedFileOf } from '../src/private/included-files';
import { includedTemplateOf } from '../src/private/upstream-state';

// What an adopted folder of YAML (cdk8s Include) or CloudFormation template (CfnInclude) meets on its first synth:
// a field conflict named the included object's way of writing as "its props or methods", where the fix is an edit
// of the file; and a `kind: List` document (what `kubectl get -o yaml` writes), which `kubectl apply -f` expands
// into its items, was kept as one object that no check reads.

const FIXTURES = path.join(__dirname, 'fixtures', 'adopt2');
const ROOT = path.resolve(__dirname, '..');

let cwd: string;
beforeEach(() => {
  cwd = process.cwd();
  process.chdir(ROOT);
});
afterEach(() => process.chdir(cwd));

function messages(app: ReturnType<typeof CapabilityTesting.app>): string[] {
  return CapabilityTesting.synth(app).violations.map((v) => `${v.code} ${v.message}`);
}

describe('CAP002 names the file an included object was read from, and the fix there', () => {
  test('an Include given a relative path: the path as given', () => {
    // GIVEN a ConfigMap of a YAML file, and a Contribution that writes one of its keys
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const included = new Include(routing, 'App', { url: 'test/fixtures/adopt2/config.yaml' });
    new Contribution(routing, 'Debug', { target: included.apiObjects[0], fields: { data: { LOG_LEVEL: 'debug' } } });

    // THEN the conflict names the file, not "its props or methods"
    expect(messages(app)).toEqual([
      "CAP002 field conflict: 'shop/Routing/App/orders-config-configmap-shop' and 'shop/Routing/Debug' both write data.LOG_LEVEL of ConfigMap shop/orders-config. "
      + "Give each field one owner: drop it from one of them ('shop/Routing/App/orders-config-configmap-shop' declares it in the file 'test/fixtures/adopt2/config.yaml' (read by an Include): "
      + "drop the field from its document in that file; 'shop/Routing/Debug' writes it as a Contribution, in its fields).",
    ]);
  });

  test('an Include given an absolute path (path.join(__dirname, ...)): the path relative to the working directory, the same in every checkout', () => {
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const included = new Include(routing, 'App', { url: path.join(FIXTURES, 'config.yaml') });
    new Contribution(routing, 'Debug', { target: included.apiObjects[0], fields: { data: { LOG_LEVEL: 'debug' } } });

    expect(messages(app)[0]).toContain("declares it in the file 'test/fixtures/adopt2/config.yaml' (read by an Include): drop the field from its document in that file");
  });

  test('a resource of a CfnInclude template: the template file', () => {
    // GIVEN a queue of a CloudFormation template, and a Contribution that writes the property the template sets
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const base = new SharedBase(new Capability(app, 'shop'), 'Orders');
    const template = new cfninc.CfnInclude(base, 'Template', { templateFile: 'test/fixtures/adopt2/orders-template.json' });
    new Contribution(base, 'Slow', { target: template.getResource('OrdersQueue'), fields: { VisibilityTimeout: 60 } });

    expect(messages(app)).toEqual([
      "CAP002 field conflict: 'shop/Orders/Slow' and 'shop/Orders/Template/OrdersQueue' both write VisibilityTimeout of AWS::SQS::Queue shop/Orders/Template/OrdersQueue. "
      + "Give each field one owner: drop it from one of them ('shop/Orders/Slow' writes it as a Contribution, in its fields; 'shop/Orders/Template/OrdersQueue' declares it "
      + "in the template 'test/fixtures/adopt2/orders-template.json' (read by a CfnInclude): drop the property from its resource in that file).",
    ]);
  });

  test('the autoscaled replicas of an included Deployment: the file to drop them from', () => {
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new Include(routing, 'App', { url: 'test/fixtures/trial9/hpa-replicas.yaml' });

    expect(messages(app)).toEqual([expect.stringContaining(
      "(drop it from the props, Contribution or patch; 'shop/Routing/App/orders-deployment-shop' declares it in the file 'test/fixtures/trial9/hpa-replicas.yaml' (read by an Include): "
      + 'drop the field from its document in that file; a cdk8s-plus workload renders a default unless you call markHasAutoscaler() on it)',
    )]);
  });

  test('an object declared in the program is still named by its props', () => {
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    const included = new Include(routing, 'App', { url: 'test/fixtures/adopt2/config.yaml' });
    new Contribution(routing, 'Debug', { target: included.apiObjects[0], fields: { data: { LOG_LEVEL: 'debug' } } });
    new Contribution(routing, 'Trace', { target: included.apiObjects[0], fields: { data: { LOG_LEVEL: 'trace' } } });

    expect(messages(app)[0]).toMatch(/^CAP002 field conflict: 'shop\/Routing\/App\/orders-config-configmap-shop', 'shop\/Routing\/Debug' and 'shop\/Routing\/Trace' all write/);
  });
});

describe('a List document of an included file', () => {
  test('is refused with CAP010 naming the file, for kind: List and a typed list, as kubectl apply -f would expand each', () => {
    // GIVEN the file kubectl get -o yaml writes, a typed list and a ConfigMap with a key named items
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const routing = new RuntimeRouting(new Capability(app, 'shop'), 'Routing');
    new Include(routing, 'Lists', { url: 'test/fixtures/adopt2/list.yaml' });

    // THEN each list is refused, and the ConfigMap is not
    const fix = "write each item as a document of its own in 'test/fixtures/adopt2/list.yaml', separated by '---' (yq '.items[] | split_doc' turns a List into them).";
    expect(messages(app)).toEqual([
      'CAP010 invalid object: \'shop/Routing/Lists/object0-list\' is a List of 2 items in the file \'test/fixtures/adopt2/list.yaml\' (read by an Include): '
      + `kubectl apply -f expands a List into its items, but here it is one object, whose items no check reads and which the API server cannot apply. Fix: ${fix}`,
      'CAP010 invalid object: \'shop/Routing/Lists/object1-configmaplist\' is a ConfigMapList of 1 item in the file \'test/fixtures/adopt2/list.yaml\' (read by an Include): '
      + `kubectl apply -f expands a ConfigMapList into its items, but here it is one object, whose items no check reads and which the API server cannot apply. Fix: ${fix}`,
    ]);
  });
});

describe('the upstream state the file names come from, in the pinned versions', () => {
  test("aws-cdk-lib's CfnInclude keeps the template its file loader returned, and the loader is the module's export", () => {
    // GIVEN the loader CfnInclude calls through its module object
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- not in aws-cdk-lib's exports: by its file
    const utils = require(path.join(path.dirname(require.resolve('aws-cdk-lib')), 'cloudformation-include', 'lib', 'file-utils.js'));
    expect(typeof utils.readYamlSync).toBe('function');

    // WHEN a CfnInclude reads a template
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const base = new SharedBase(new Capability(app, 'shop'), 'Orders');
    const template = new cfninc.CfnInclude(base, 'Template', { templateFile: 'test/fixtures/adopt2/orders-template.json' });

    // THEN the seam finds the template it read (which CfnInclude annotates as it parses it)
    expect((includedTemplateOf(template) as any).Resources.OrdersQueue).toEqual(expect.objectContaining({ Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } }));
    expect(includedFileOf(template.getResource('OrdersQueue'))).toBe('test/fixtures/adopt2/orders-template.json');
  });

  test("cdk8s' Include declares each document of its file as the props of an ApiObject, which the seam finds the file of", () => {
    const app = CapabilityTesting.app({ builtinCloudFormationValidation: false });
    const included = new Include(new RuntimeRouting(new Capability(app, 'shop'), 'Routing'), 'App', { url: 'test/fixtures/adopt2/config.yaml' });

    expect(included.apiObjects.map((o) => includedFileOf(o))).toEqual(['test/fixtures/adopt2/config.yaml']);
  });
});
