/** What a benchmark ran on, for its results: CPU, cores, memory, Node, OS, load, commit. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const r2 = (n: number) => Math.round(n * 100) / 100;

export interface Machine {
  cpu_model: string | null;
  cores: number;
  ram_gb: number;
  node: string;
  os: string;
  kernel: string;
}

export function describeMachine(): Machine {
  let distro: string | undefined;
  try {
    distro = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
  } catch {
    /* not Linux, or no os-release */
  }
  return {
    cpu_model: cpus()[0]?.model ?? null,
    cores: cpus().length,
    ram_gb: r2(totalmem() / 1024 ** 3),
    node: process.version,
    os: distro ?? osType(),
    kernel: `${osType()} ${release()}`,
  };
}

/** The 1, 5 and 15 minute load averages (runnable processes; compare with the core count). */
export const loadAverage = (): number[] => loadavg().map(r2);

/** `git rev-parse --short HEAD` of this checkout (or of `dir`), or null outside git. */
export function gitCommit(dir = ROOT): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}
