import { PerBuild } from './per-build.ts';
import { BuildStore } from './store.ts';

/** The process's store of the build being served (one per build, swapped when a new one is published). */
export const buildStores = new PerBuild<BuildStore>((b) => BuildStore.open(b.dir), (s) => s.close());
