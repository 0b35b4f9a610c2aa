import * as fs from 'fs';
import * as path from 'path';
// eslint-disable-next-line import/no-extraneous-dependencies -- the bench is a dev tool, and yaml one of our devDependencies
import * as YAML from 'yaml';
import { Builder } from './builder';
import { dnsLabel, smallAppObjects, tenantObjects, tenantTemplates } from './floor-objects';
import { CHART_COUNT, configMapProps } from './sizes';

/**
 * The floor: what producing the same objects costs at the least. The same
 * objects built as plain JavaScript objects (no construct tree, no
 * resolution, no checks), serialized the fastest way that gives the same
 * bytes as the bare side (`yaml` itself with cdk8s' options; `JSON.stringify`
 * for templates, as aws-cdk writes them), and written with one `writeFileSync`
 * per file after one `mkdirSync` per folder. Loads `yaml` only.
 *
 * It writes every file that holds an object: each chart's manifest file and
 * each stack's template, with the bare side's names and bytes, plus a
 * `manifest.json` naming each stack, its template and its dependencies. It
 * writes none of the bookkeeping files (aws-cdk's `tree.json`, asset and
 * metadata files; our `plan.json`, lock, `interface.json`, kustomization).
 */
export const floor: Record<string, Builder> = {
  charts(outdir, size) {
    const files: Array<[string, string]> = [];
    for (let c = 0; c < CHART_COUNT; c++) {
      const docs: object[] = [];
      for (let j = 0; j < size; j++) docs.push(configMapProps(c, j));
      files.push([`${dnsLabel([`Routing${c}`])}.k8s.yaml`, toYaml(docs)]);
    }
    writeFiles(outdir, files);
  },

  small(outdir, size) {
    const chart = ['Routing'];
    writeFiles(outdir, [[`${dnsLabel(chart)}.k8s.yaml`, toYaml(smallAppObjects(chart, size))]]);
  },

  tenants(outdir, size) {
    const chart = ['Routing'];
    writeFiles(path.join(outdir, 'runtime'), [[`${dnsLabel(chart)}.k8s.yaml`, toYaml(tenantObjects(chart, size))]]);
    const templates = tenantTemplates(size);
    const files: Array<[string, string]> = templates.map(([stack, template]) => [`${stack}.template.json`, JSON.stringify(template, undefined, 1)]);
    const [base] = templates[0];
    const artifacts: Record<string, object> = {};
    for (const [stack] of templates) {
      artifacts[stack] = {
        type: 'aws:cloudformation:stack',
        environment: 'aws://unknown-account/unknown-region',
        properties: { templateFile: `${stack}.template.json` },
        ...(stack === base ? {} : { dependencies: [base] }),
      };
    }
    files.push(['manifest.json', JSON.stringify({ version: '55.0.0', artifacts }, undefined, 2)]);
    writeFiles(path.join(outdir, 'deploy'), files);
  },
};

/** YAML documents exactly as cdk8s' `Yaml.stringify` writes them (the same `yaml` library and options), without loading cdk8s. */
export function toYaml(docs: readonly object[]): string {
  return docs.map((d) => YAML.stringify(d, { keepUndefined: true, lineWidth: 0, version: '1.1' })).join('---\n');
}

/** One folder, then one write per file. */
function writeFiles(dir: string, files: ReadonlyArray<[string, string]>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, content] of files) fs.writeFileSync(path.join(dir, name), content);
}
