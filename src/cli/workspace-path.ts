import * as path from 'path';

/** The GitHub runner's workspace (`GITHUB_WORKSPACE`, the checkout's root), or undefined off a runner or when it is empty. */
export function runnerWorkspace(): string | undefined {
  return process.env.GITHUB_WORKSPACE || undefined;
}

/**
 * A file or folder relative to the runner's workspace, with `/`, as GitHub
 * resolves annotation files and code scanning resolves SARIF files; `''` for the
 * workspace itself; undefined when there is no workspace or the target is
 * outside it.
 *
 * @param target a path, relative to the working folder or absolute
 * @param workspace the workspace, as `runnerWorkspace()` gives it
 */
export function inWorkspace(target: string, workspace: string | undefined): string | undefined {
  if (workspace === undefined) return undefined;
  const relative = path.relative(path.resolve(workspace), path.resolve(target));
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}
