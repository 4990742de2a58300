/**
 * Another process's CPU time and memory, read from Linux's /proc (as `ps` and pidusage do):
 * `/proc/<pid>/stat` utime + stime (clock ticks, every thread: DuckDB's and libuv's too) and
 * `/proc/<pid>/status` VmRSS (resident now) and VmHWM (the peak resident size since start).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;
/** Clock ticks per second of /proc's times (`getconf CLK_TCK`; 100 on every Linux in practice). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User and system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): { user_s: number; sys_s: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2 (the command) is in parentheses and may hold spaces: count from the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field n is rest[n - 3]: utime 14, stime 15.
  const hz = clockTicks();
  return { user_s: Number(rest[11]) / hz, sys_s: Number(rest[12]) / hz };
}

/**
 * CPU seconds of a process and its children (PostgreSQL's postmaster and its backends, which
 * each start their own session, so not a process group): the parent's own time and its reaped
 * children's (a backend that exited when its connection closed is counted there), plus every
 * live child's, so the total only grows.
 */
export function familyCpuSeconds(parent: number): number {
  const hz = clockTicks();
  let s = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // field n is rest[n - 3]: ppid 4, utime 14, stime 15, cutime 16, cstime 17.
    const self = Number(name) === parent;
    if (!self && Number(rest[1]) !== parent) continue;
    s += (Number(rest[11]) + Number(rest[12])) / hz;
    if (self) s += (Number(rest[13]) + Number(rest[14])) / hz;
  }
  return s;
}

/** Resident set size now and its peak since the process started, in bytes. */
export function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU used between `start()` and `stop()`, as seconds and as a share of the wall time (1 = one core busy). */
export function cpuMeter(pid: number): { stop(): { user_s: number; sys_s: number; wall_s: number; cores_busy: number } } {
  const t0 = performance.now();
  const c0 = cpuSeconds(pid);
  return {
    stop() {
      const c1 = cpuSeconds(pid);
      const wall = (performance.now() - t0) / 1000;
      const user = c1.user_s - c0.user_s;
      const sys = c1.sys_s - c0.sys_s;
      const r = (x: number) => Math.round(x * 100) / 100;
      return { user_s: r(user), sys_s: r(sys), wall_s: r(wall), cores_busy: r((user + sys) / wall) };
    },
  };
}

/** Samples VmRSS every `intervalMs` until stopped: the peak and the last reading. */
export function rssSampler(pid: number, intervalMs = 500): { stop(): { peak: number; end: number; samples: number } } {
  let peak = 0;
  let last = NaN;
  let samples = 0;
  const read = () => {
    try {
      last = memory(pid).rss;
      peak = Math.max(peak, last);
      samples++;
    } catch {
      /* the process has exited */
    }
  };
  read();
  const timer = setInterval(read, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      return { peak, end: last, samples };
    },
  };
}
