import pino, { type DestinationStream } from 'pino';
import type { EtlLogger } from './context.ts';

/**
 * The ETL's log for ops (log shippers): JSON lines with ISO times, as the service writes its
 * own (service/log.ts), so one query reads both.
 */
export function jsonLog(dest?: DestinationStream): EtlLogger {
  return pino({ base: { service: 'etl' }, timestamp: pino.stdTimeFunctions.isoTime }, dest);
}
