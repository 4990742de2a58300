import { planSources, type BuildContext, type EtlLogger, type Stage } from './context.ts';
import { runStage, type StageOutputCache } from './stage-output-cache.ts';
import { workingTablesDoneWith } from './working-tables.ts';

/** A stage started beside the main line: its own context (connection, manifest entries) until it is joined. */
interface Beside {
  stage: Stage;
  sub: BuildContext;
  done: Promise<void>;
  failed?: Error;
}

/**
 * Runs `stages` in order into `ctx`, each stage's wall time into `timings`. A stage with
 * `beside` starts as soon as the stage it names is done, on a connection of its own, and
 * runs while the stages between do; at its own place in the order the build waits for it
 * and takes its manifest entries (quality, match rates, files), so the manifest is the one
 * the stages in order would give. Its time is its own run's; the wait is `<name>_wait`.
 * A failure anywhere fails the build, but only once every stage still running has stopped:
 * nothing touches the database after the caller closes it. After each stage the working
 * tables no later stage reads are dropped (working-tables.ts).
 */
export async function runStages(ctx: BuildContext, stages: readonly Stage[], outputs: StageOutputCache | undefined, timings: Record<string, number>): Promise<void> {
  checkBeside(stages);
  const running = new Map<string, Beside>();
  const published = new Set((ctx.published ?? []).map((t) => t.name));
  const dropped = new Set<string>();
  const dropDone = async (i: number) => {
    for (const t of workingTablesDoneWith(stages, i, published)) {
      if (dropped.has(t)) continue;
      dropped.add(t);
      await ctx.conn.run(`DROP TABLE IF EXISTS ${t}`);
    }
  };
  try {
    for (const [i, stage] of stages.entries()) {
      const t0 = performance.now();
      const beside = running.get(stage.name);
      if (beside) {
        await beside.done;
        running.delete(stage.name);
        Object.assign(ctx.quality, beside.sub.quality);
        Object.assign(ctx.matchRates, beside.sub.matchRates);
        Object.assign(ctx.artifacts, beside.sub.artifacts);
        timings[`${stage.name}_wait`] = Math.round(performance.now() - t0);
        await dropDone(i);
        continue;
      }
      for (const b of running.values()) if (b.failed) throw b.failed;
      await runStage(ctx, stages, i, outputs, { skip: [...running.values()].map((b) => b.stage.beside!.tables) });
      timings[stage.name] = Math.round(performance.now() - t0);
      logDone(ctx.log, ctx.buildId, stage.name, timings[stage.name]);
      await dropDone(i);
      for (const [j, later] of stages.entries()) {
        if (later.beside?.after === stage.name) running.set(later.name, await start(ctx, stages, j, outputs, timings));
      }
    }
  } catch (e) {
    await Promise.allSettled([...running.values()].map((b) => b.done));
    throw e;
  }
}

async function start(ctx: BuildContext, stages: readonly Stage[], index: number, outputs: StageOutputCache | undefined, timings: Record<string, number>): Promise<Beside> {
  const stage = stages[index]!;
  const conn = await ctx.db.connect();
  // Progress is the main line's: one stage at a time on the terminal.
  const sub: BuildContext = { ...ctx, conn, quality: {}, matchRates: {}, artifacts: {}, progress: () => undefined };
  const t0 = performance.now();
  const b: Beside = { stage, sub, done: Promise.resolve() };
  b.done = runStage(sub, stages, index, outputs, { only: stage.beside!.tables })
    .then(() => {
      timings[stage.name] = Math.round(performance.now() - t0);
      logDone(ctx.log, ctx.buildId, stage.name, timings[stage.name]);
    }, (e: Error) => {
      b.failed = e;
      throw e;
    })
    .finally(() => conn.closeSync());
  // Awaited when joined, or by runStages on a failure; a rejection meanwhile is not unhandled.
  b.done.catch(() => undefined);
  return b;
}

const logDone = (log: EtlLogger, buildId: string, stage: string, ms: number | undefined) => log.info({ build_id: buildId, stage, ms }, 'stage done');

/**
 * Throws unless every stage with `beside` can run beside the stages between its `after` and
 * itself: `after` is an earlier stage; each table it reads is staged or written by a stage
 * up to `after`, and none is written by a stage between; its `writes` match its `tables`,
 * and no stage between reads or writes a table matching them.
 */
export function checkBeside(stages: readonly Stage[]): void {
  for (const [j, stage] of stages.entries()) {
    if (!stage.beside) continue;
    const { after, tables } = stage.beside;
    const i = stages.findIndex((s) => s.name === after);
    const fail = (why: string) => {
      throw new Error(`stage ${stage.name} cannot run beside the others from after ${after}: ${why}`);
    };
    if (i < 0 || i >= j) fail(`${after} is not a stage before it`);
    const between = stages.slice(i + 1, j);
    for (const t of stage.reads) {
      const writer = stages.slice(0, j).findLast((s) => s.writes.includes(t));
      if (!writer && !planSources(stages).some((s) => s.table === t)) fail(`no stage before it writes ${t}`);
      if (writer && between.includes(writer)) fail(`${writer.name}, which runs beside it, writes ${t}`);
    }
    for (const t of stage.writes) if (!tables.test(t)) fail(`${t} is not named as its tables (${tables})`);
    for (const s of between) {
      if (s.beside) fail(`${s.name} also runs beside the main line`);
      const touched = [...s.reads, ...s.writes].filter((t) => tables.test(t));
      if (touched.length > 0) fail(`${s.name}, which runs beside it, uses ${touched.join(', ')}`);
    }
  }
}
