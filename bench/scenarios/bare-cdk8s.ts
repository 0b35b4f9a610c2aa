import { App, Chart, JsonPatch } from 'cdk8s';
import { Builder } from './builder';
import { runtimeShapes } from './runtime-shapes';

/**
 * The bare cdk8s side of the runtime scenarios: the same objects under a plain
 * cdk8s `App`, ordered by cdk8s' own `addDependency`, written into with JSON
 * patches (`addJsonPatch`, one `add` per leaf), written by `app.synth()`.
 * Loads cdk8s only, as a plain cdk8s program would.
 */
export const bareCdk8s: Record<string, Builder> = Object.fromEntries(
  Object.entries(runtimeShapes).map(([name, shape]): [string, Builder] => [
    name,
    (outdir, size) => {
      const app = new App({ outdir });
      shape(
        {
          chart: (id) => new Chart(app, id),
          contribute: (_writer, _id, target, fields) => {
            target.addJsonPatch(...leaves(fields).map(([pointer, value]) => JsonPatch.add(pointer, value)));
          },
          writeThrough: (_writer, _id, target, write) => write(target),
        },
        size,
      );
      app.synth();
    },
  ]),
);

/** The leaves of a partial manifest as `[JSON pointer, value]` pairs. */
export function leaves(fields: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(fields)) {
    const pointer = `${prefix}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push(...leaves(value as Record<string, unknown>, pointer));
    else out.push([pointer, value]);
  }
  return out;
}
