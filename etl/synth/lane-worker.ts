/** A worker thread that writes one lane of the synthetic region (generate.ts, lanes.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { writeLane, type GenerateOptions } from './generate.ts';
import type { Group } from './lanes.ts';

const { opts, groups } = workerData as { opts: GenerateOptions; groups: Group[] };
parentPort!.postMessage(await writeLane(opts, groups));
