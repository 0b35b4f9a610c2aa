import type { OutputWriter } from '../output-writer';

/** `interface.json`: the one versioned interface artifact, every contract with its schema, parameter, producers and consumers. */
export const interfaceJson: OutputWriter = {
  name: 'interface.json',
  write: (context, out) => {
    out.files.set('interface.json', JSON.stringify(context.artifact, undefined, 2) + '\n');
  },
};
