import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout, as Fastify's own logger writes them. */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined });
}
