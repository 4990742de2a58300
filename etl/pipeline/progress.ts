import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAGES } from './stages.ts';

/**
 * Progress for `etl run` on a terminal: the current stage, rows read, rate, and an ETA from
 * the previous build's total time (the best estimate there is before this build finishes).
 * Off a terminal it prints nothing: the logger's one line per stage is the summary.
 */
export function createProgress(dataDir: string, tty: boolean): { update: (stage: string, rows: number) => void; done: () => void } {
  if (!tty) return { update: () => undefined, done: () => undefined };
  let previousMs: number | undefined;
  try {
    const m = JSON.parse(readFileSync(join(dataDir, 'current', 'manifest.json'), 'utf8')) as { stage_timings_ms?: Record<string, number> };
    // A stage run beside the main line overlaps it: the main line's stages and the waits for it add up to the build.
    const beside = new Set(STAGES.filter((s) => s.beside).map((s) => s.name));
    previousMs = Object.entries(m.stage_timings_ms ?? {}).filter(([k]) => !beside.has(k)).reduce((a, [, v]) => a + v, 0);
  } catch {
    previousMs = undefined;
  }
  const start = performance.now();
  let stageStart = start;
  let currentStage = '';
  let lastDraw = 0;
  return {
    update(stage, rows) {
      const now = performance.now();
      if (stage !== currentStage) {
        currentStage = stage;
        stageStart = now;
      }
      if (now - lastDraw < 200) return;
      lastDraw = now;
      const rate = rows / Math.max(0.001, (now - stageStart) / 1000);
      const eta = previousMs === undefined ? 'ETA unknown (first build)' : `ETA ${Math.max(0, Math.round((previousMs - (now - start)) / 1000))}s`;
      process.stderr.write(`\r\x1b[K${stage}: ${rows.toLocaleString('en-GB')} rows, ${Math.round(rate).toLocaleString('en-GB')}/s, ${eta}`);
    },
    done() {
      process.stderr.write('\r\x1b[K');
    },
  };
}
