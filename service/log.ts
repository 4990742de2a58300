import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Request lines carry `request_id`; the Authorization header and
 * anything called `api_key` are redacted in case a caller ever logs them by mistake.
 */
export function createLogger(level: LevelWithSilent = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'property-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'api_key', '*.api_key'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
