import type { ParameterizedContext } from 'koa';
import type { ServingBuild } from '../build/warmer.ts';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/**
 * Data endpoints answer 503 until a build is published; nothing is charged. Otherwise the
 * request takes the serving build's resources now, and keeps them to the end even if a newer
 * build starts serving meanwhile (a response never mixes two builds).
 */
export function requireBuild(builds: ServingBuild) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const data = builds.resources();
    if (!data) throw new ApiError('data_unavailable', 'No published data build is loaded yet; try again later.', undefined, { 'Retry-After': '60' });
    ctx.state.data = data;
    // Held to the end: a replaced build is closed only once its last request has finished.
    const release = data.hold();
    try {
      await next();
    } finally {
      release();
    }
  };
}
