// Worker-thread entry of the address matcher (match-threads.ts): Node 20 does not give a
// worker its parent's module hooks (`--import tsx`), so register tsx here, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./match-worker.ts');
