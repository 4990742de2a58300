export { BuildLockedError, LOCK_FILE, acquireBuildLock, lockPath, withBuildLock } from './lock.ts';
export type { HeldBuildLock, LockHolder, LockLog } from './lock.ts';
export { DEFAULT_CRON, ScheduleConfigError, checkCron, cronFromEnv, startSchedule } from './scheduler.ts';
export type { RunBuild, RunContext, Schedule, ScheduleLog, ScheduleOptions } from './scheduler.ts';
