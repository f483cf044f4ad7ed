import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/** LOG_FORMAT's values (config.ts reads the variable). */
export type LogFormat = 'auto' | 'pretty' | 'json';

/**
 * `auto` (the default) writes readable lines to a person at a terminal and JSON lines to anything
 * else (a pipe, a file, a log collector), so `npm start` reads well and production logs still parse.
 */
export function chooseLogFormat(format: LogFormat, stdoutIsTty: boolean): 'pretty' | 'json' {
  if (format === 'auto') return stdoutIsTty ? 'pretty' : 'json';
  return format;
}

export interface LoggerOptions {
  /** A pino level name (LOG_LEVEL). */
  level: string;
  format: LogFormat;
  /** Whether stdout is a terminal (default: process.stdout.isTTY); also decides colours. */
  stdoutIsTty?: boolean;
  /** Where lines go (default stdout); tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

/**
 * The process's one logger: Fastify logs requests with it (app.ts takes it as loggerInstance) and
 * the container records domain events with it. Pretty lines are `HH:MM:ss.l LEVEL: message`; their
 * structured fields stay in the JSON format only (every message is written to read on its own),
 * except an error's stack, which pino-pretty always prints.
 */
export function createLogger(options: LoggerOptions): Logger {
  const tty = options.stdoutIsTty ?? process.stdout.isTTY === true;
  if (chooseLogFormat(options.format, tty) === 'json') {
    return options.destination ? pino({ level: options.level }, options.destination) : pino({ level: options.level });
  }
  const stream = pretty({
    // Synchronous, as pino's own stdout: nothing is lost when the process exits right after a line.
    sync: true,
    colorize: tty,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    hideObject: true,
    ...(options.destination ? { destination: options.destination as NodeJS.WritableStream } : {}),
  });
  return pino({ level: options.level }, stream);
}
