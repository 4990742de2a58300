import type { Logger } from './log.ts';
import type { BuildInfo, DataSource } from './middleware/data.ts';
import { PerBuild } from './store/per-build.ts';

/**
 * Watches `current` and, when a new build is published, opens every per-build resource
 * (store, search index, record file, valuation models, listing sets) in the background, so
 * the swap costs no request a wait. `serving` is the build the service answers from: the
 * previous one until every resource of the new one is ready, then the new one in a single
 * assignment, so a response never mixes two builds and its `X-Build-Id` says which it used.
 * Before the first warm-up finishes (start-up), it is `current` itself.
 */
export function startBuildWarmer(data: DataSource, logger: Logger, intervalMs = 2000): { stop(): void; idle(): Promise<void>; serving: DataSource } {
  let served: BuildInfo | undefined;
  let warmedDir: string | undefined;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    const build = data.current();
    if (busy || !build || build.dir === warmedDir) return;
    warmedDir = build.dir;
    busy = true;
    const t0 = performance.now();
    running = PerBuild.warmAll(build, (index, err) => logger.warn({ build_id: build.id, resource: index, err: (err as Error).message }, 'per-build resource did not open'))
      .then(() => {
        const previous = served;
        served = build;
        PerBuild.retireAll(build.dir);
        logger.info({ build_id: build.id, previous_build_id: previous?.id ?? null, ms: Math.round(performance.now() - t0) }, 'build warmed');
      })
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    stop: () => clearInterval(timer),
    /** Resolves when the warm-up under way (if any) has finished. */
    idle: () => running,
    serving: { current: () => served ?? data.current() },
  };
}
