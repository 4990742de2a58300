export { BuildLockedError, LOCK_FILE, acquireBuildLock, lockPath, withBuildLock } from './lock.ts';
export type { HeldBuildLock, LockHolder, LockLog } from './lock.ts';
export { DEFAULT_CRON, ScheduleConfigError, checkCron, cronFromEnv, cronTrigger, startSchedule } from './scheduler.ts';
export type { RunBuild, RunContext, Schedule, ScheduleLog, ScheduleOptions, Trigger } from './scheduler.ts';
