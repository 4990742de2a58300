/** What staging one file reports in the manifest. */
export type { SourceReport } from '../../../pipeline/context.ts';

export interface StagingProgress {
  (event: { file: string; rows: number }): void;
}
