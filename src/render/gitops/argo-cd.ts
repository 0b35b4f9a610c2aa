import * as path from 'path';
import type { OutputWriter } from '../output-writer';
import { placedManifest, renderObjects, runtimeSteps } from './runtime-steps';

/** The annotation Argo CD orders by. */
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/**
 * The Argo CD writer: `gitops/argocd/`, the runtime manifests with the
 * annotation `argocd.argoproj.io/sync-wave` set to the position of their step
 * among the runtime steps, and each namespaced object that names no namespace
 * in `default` (`placedManifest`). It claims that annotation: an object that sets it
 * itself is refused (`CAP002`) before anything is rendered.
 */
export const argoCdWriter: OutputWriter = {
  name: 'gitops/argocd/',
  gitopsEngine: 'argocd',
  gitopsRecord: () => ({ engine: 'argocd' }),
  claims: [{ annotation: SYNC_WAVE_ANNOTATION, writer: 'GitOps.argoCd()' }],
  write: ({ steps, runtimeFiles }, out) => {
    runtimeSteps(steps, runtimeFiles).forEach(({ files }, wave) => {
      for (const f of files) {
        const annotated = f.objects.map((o) => {
          const manifest = placedManifest(o);
          const metadata = { ...manifest.metadata, annotations: { ...manifest.metadata?.annotations, [SYNC_WAVE_ANNOTATION]: String(wave) } };
          return { ...manifest, metadata };
        });
        out.files.set(`gitops/argocd/${path.posix.basename(f.file)}`, renderObjects(annotated));
      }
    });
  },
};
