import * as fs from 'fs';
import * as path from 'path';

/**
 * The AWS CDK CLI's output folder when the CLI runs the app (`cdk synth`, `cdk deploy`, `cdk diff` with an `app`
 * that is the program): the CLI creates it, starts the app with `CDK_OUTDIR` naming it (aws-cdk's
 * `cxapp/exec.ts`, `env[cxapi.OUTDIR_ENV] = outdir`) and then reads the cloud assembly from it
 * (`new CloudAssembly(outdir)`, `<outdir>/manifest.json`). aws-cdk-lib's own `App` writes there for the same
 * reason (its `outdir` defaults to `CDK_OUTDIR`). Blank counts as unset, as for `CDK8S_OUTDIR`.
 *
 * @returns the absolute folder, or undefined when the CLI does not run the app
 */
export function awsCdkCliOutdir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const outdir = env.CDK_OUTDIR;
  return outdir === undefined || outdir.trim() === '' ? undefined : path.resolve(outdir);
}

/**
 * Why the cloud assembly cannot also be written where the AWS CDK CLI reads it: its folder is the outdir, or one
 * holds the other, so writing the assembly at its top would write into the outdir (which synth replaces as a
 * whole), or the outdir into the CLI's folder.
 *
 * @param outdir the app's outdir
 * @param cdkOutdir what {@link awsCdkCliOutdir} gave
 * @returns the problem as a `CAP011` detail, or undefined
 */
export function awsCdkCliOutdirProblem(outdir: string, cdkOutdir: string): string | undefined {
  const out = path.resolve(outdir);
  const within = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`);
  if (!within(cdkOutdir, out) && !within(out, cdkOutdir)) return undefined;
  const how = cdkOutdir === out ? 'is the outdir' : within(cdkOutdir, out) ? 'is inside the outdir' : 'holds the outdir';
  const shown = (p: string) => path.relative(process.cwd(), p) || '.';
  return `the AWS CDK CLI runs this app with the output folder '${shown(cdkOutdir)}' (CDK_OUTDIR: cdk.json's "output", or --output), which ${how} '${shown(out)}': `
    + 'the CLI reads the cloud assembly at the top of its folder, and synth replaces the outdir as a whole. Nothing was changed. '
    + 'Give the CLI a folder of its own: remove "output" from cdk.json (the CLI then uses cdk.out), or point the outdir (the outdir prop, or CDK8S_OUTDIR) elsewhere.';
}

/**
 * Writes the cloud assembly synth wrote into `<outdir>/deploy` into the AWS CDK CLI's output folder too, so
 * `cdk synth` and `cdk deploy` with `"app": "npx ts-node main.ts"` find it where they read it. The CLI's folder is
 * the CLI's, not this library's: like aws-cdk's own `App`, the assembly's files replace the files of the same name
 * and nothing else there is removed (the CLI's locks, an older assembly's templates). Its `manifest.json`, which
 * names every other file, is written last, so a write that fails halfway leaves no manifest naming a missing file.
 *
 * @param assembly the written assembly (`<outdir>/deploy`)
 * @param cdkOutdir the CLI's folder, which the CLI created
 */
export function copyAssemblyForAwsCdkCli(assembly: string, cdkOutdir: string): void {
  fs.mkdirSync(cdkOutdir, { recursive: true });
  const manifest = 'manifest.json';
  for (const entry of fs.readdirSync(assembly)) {
    if (entry === manifest) continue;
    fs.cpSync(path.join(assembly, entry), path.join(cdkOutdir, entry), { recursive: true, force: true });
  }
  fs.copyFileSync(path.join(assembly, manifest), path.join(cdkOutdir, manifest));
}
