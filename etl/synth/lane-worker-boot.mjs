// Worker-thread entry of the synthetic-region generator (generate.ts): Node 20 does not give a
// worker its parent's module hooks (`--import tsx`), so register tsx here, then load the lane.
import { register } from 'tsx/esm/api';

register();
await import('./lane-worker.ts');
