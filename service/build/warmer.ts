import { checkBuildTables } from '../../lib/tables/check.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import type { Logger } from '../log.ts';
import type { Config } from '../../schemas/config.ts';
import { BuildResources } from './resources.ts';
import type { BuildInfo, DataSource } from './source.ts';

/** Which build's resources a request uses: the one serving when it started. */
export interface ServingBuild extends DataSource {
  /** The serving build's resources (undefined when no build is published). */
  resources(): BuildResources | undefined;
}

/** How long a replaced build waits, after its grace, for the requests that still hold it. */
export const RETIRED_HOLD_MAX_MS = 120_000;

export interface BuildWarmer extends ServingBuild {
  /** Stops looking for new builds (requests under way still use their resources). */
  stop(): void;
  /** Stops, then closes every build's resources (after the last request has finished). */
  close(): Promise<void>;
  /** Resolves when the warm-up under way (if any) has finished. */
  idle(): Promise<void>;
}

/**
 * Holds the serving build's `BuildResources` and, when a new build is published, opens every
 * resource of the new one in the background (found on a timer, or by the next request), so the
 * swap costs no request a wait. The previous build keeps serving until every resource of the
 * new one has been opened, then requests move to the new one in a single assignment; its `X-Build-Id`
 * says which one answered. Before the first warm-up finishes (start-up) requests get the
 * opening build's resources and wait for what they need, as they must. The replaced build's
 * resources are closed after `graceMs`, once requests that took them have finished; a
 * roll-back to it within that time takes it back without reopening anything.
 * A build whose declared tables (its manifest's) do not match their contracts (schemas/tables/) is refused
 * with one error log line naming the mismatches, and the previous build keeps serving (at
 * start-up, with no previous build, requests answer 503 data_unavailable once it is refused).
 * Once a build is warm its DuckDB store is released (`BuildResources.releaseStore`: every resource
 * has been built from it, and no request queries it; ADR 0015) unless `keepStoreOpen`; the
 * "build warmed" log line says which (`store_released`).
 */
export function startBuildWarmer(data: DataSource, logger: Logger, intervalMs = 2000, graceMs = 10_000, opts: BuildOptions = {}): BuildWarmer {
  let serving: BuildResources | undefined;
  let opening: BuildResources | undefined;
  let retiring: { resources: BuildResources; timer: NodeJS.Timeout } | undefined;
  let running: Promise<void> = Promise.resolve();
  /** Builds refused for not matching their contracts: not checked again. */
  const refused = new Set<string>();

  // A replaced build's resources close once the requests that took them have finished (at the
  // latest RETIRED_HOLD_MAX_MS after the grace): its files are read until then.
  const retire = (old: BuildResources) => {
    if (retiring) {
      clearTimeout(retiring.timer);
      void retiring.resources.closeWhenFree(RETIRED_HOLD_MAX_MS);
    }
    const timer = setTimeout(() => {
      if (retiring?.resources === old) retiring = undefined;
      void old.closeWhenFree(RETIRED_HOLD_MAX_MS);
    }, graceMs);
    timer.unref();
    retiring = { resources: old, timer };
  };

  const switchTo = (next: BuildResources, t0: number, fresh = true) => {
    const previous = serving;
    serving = next;
    if (previous && previous !== next) retire(previous);
    // A roll-back's store was released when it first warmed (or kept open, as configured).
    const storeReleased = fresh && !opts.keepStoreOpen ? next.releaseStore(opts.storeLingerMs) : next.storeOpen() === false;
    logger.info({ build_id: next.build.id, previous_build_id: previous?.build.id ?? null, ms: Math.round(performance.now() - t0), store_released: storeReleased }, 'build warmed');
  };

  const tick = () => {
    const build = data.current();
    if (opening || !build || build.dir === serving?.build.dir || refused.has(build.dir)) return;
    const t0 = performance.now();
    if (retiring?.resources.build.dir === build.dir) {
      // A roll-back within the grace period: the previous build's resources are still open.
      const back = retiring.resources;
      clearTimeout(retiring.timer);
      retiring = undefined;
      switchTo(back, t0, false);
      return;
    }
    const next = new BuildResources(build, { pageCacheBytes: opts.pageCacheBytes });
    opening = next;
    const warmed = next.warm((resource, err) => logger.warn({ build_id: build.id, resource, err: (err as Error).message }, 'per-build resource did not open'));
    running = Promise.all([checkBuildTables(build.dir, declaredTables(build)), warmed])
      .then(async ([mismatches]) => {
        if (mismatches.length === 0) return switchTo(next, t0);
        refused.add(build.dir);
        logger.error({ build_id: build.id, serving_build_id: serving?.build.id ?? null, mismatches },
          'build refused: its tables do not match their contracts (schemas/tables/); the previous build keeps serving');
        await next.close();
      })
      .finally(() => {
        opening = undefined;
      });
  };

  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  const resources = () => {
    tick();
    return serving ?? opening;
  };
  return {
    stop: () => clearInterval(timer),
    async close() {
      clearInterval(timer);
      await running.catch(() => undefined);
      if (retiring) clearTimeout(retiring.timer);
      for (const r of new Set([serving, opening, retiring?.resources])) await r?.close();
    },
    idle: () => running,
    resources,
    current: (): BuildInfo | undefined => resources()?.build,
  };
}

/** The build options the configuration sets (the server's and the test server's). */
export function buildOptions(config: Pick<Config, 'KEEP_STORE_OPEN' | 'PAGE_CACHE_MB'>): BuildOptions {
  return { keepStoreOpen: config.KEEP_STORE_OPEN, pageCacheBytes: config.PAGE_CACHE_MB * 1048576 };
}

export interface BuildOptions {
  /** Keep each build's DuckDB store open after its warm-up (KEEP_STORE_OPEN: ad hoc diagnosis). */
  keepStoreOpen?: boolean;
  /** How long a store reopened after its release stays open after its last use (BuildStore.release). */
  storeLingerMs?: number;
  /** Bytes each build's page cache may hold (PAGE_CACHE_MB; BuildCaches.pages). */
  pageCacheBytes?: number;
}

/**
 * The contracts of the tables the build's manifest says it published: each must be there and
 * match. A table a build does not declare is not a mismatch: what needs it answers 503 (as for a
 * missing serving file), and the rest of the build serves.
 */
function declaredTables(build: BuildInfo) {
  const tables = build.manifest.tables;
  const names = new Set(tables && typeof tables === 'object' ? Object.keys(tables) : []);
  return PUBLISHED_TABLES.filter((t) => names.has(t.name));
}

/** One build's resources serving for good (benchmarks and tools that open one build themselves). */
export function fixedBuild(resources: BuildResources): ServingBuild {
  return { resources: () => resources, current: () => resources.build };
}
