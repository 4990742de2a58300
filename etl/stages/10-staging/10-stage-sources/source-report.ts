import type { z } from 'zod';
import type { ManifestSource } from '../../../../schemas/manifest.ts';

/** What staging one file reports in the manifest. */
export type SourceReport = z.infer<typeof ManifestSource>;

export interface StagingProgress {
  (event: { file: string; rows: number }): void;
}
