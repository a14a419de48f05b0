import { once } from 'node:events';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { Logger, LoggerService } from '@nestjs/common';
import { createKafka } from './kafka.client';
import { KafkaSettings } from './kafka.settings';
import { exportTopic, LineSink, TopicExportResult } from './topic-export';
import { ExportSelection, parseTimeArg } from './topic-export-format';
import { ExportProgress } from './topic-export-progress';

export interface ExportArgs {
  topic: string;
  org?: string;
  since?: string;
  until?: string;
  type?: string;
  out?: string;
}

export function selectionFromArgs(args: ExportArgs, now: number): ExportSelection {
  const selection: ExportSelection = {
    orgId: args.org,
    ceType: args.type,
    sinceMs: args.since === undefined ? undefined : parseTimeArg(args.since, now),
    untilMs: args.until === undefined ? undefined : parseTimeArg(args.until, now),
  };
  if (selection.sinceMs !== undefined && selection.untilMs !== undefined && selection.sinceMs > selection.untilMs) {
    throw new Error('--since is after --until');
  }
  return selection;
}

/** Warnings and errors only: a person reading progress does not need the client's chatter. */
export class StderrLogger implements LoggerService {
  constructor(private readonly stderr: Writable) {}
  log(): void {}
  warn(message: unknown, context?: string): void {
    this.stderr.write(`warn [${context ?? 'agentwatch'}] ${String(message)}\n`);
  }
  error(message: unknown, context?: string): void {
    this.stderr.write(`error [${context ?? 'agentwatch'}] ${String(message)}\n`);
  }
}

/** Writes lines to a stream, waiting for 'drain' when its buffer is full; a stream error ends the export. */
function streamSink(stream: Writable): LineSink {
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  return async (line) => {
    if (failure) throw failure;
    if (!stream.write(line)) await once(stream, 'drain');
  };
}

/**
 * `agentwatch export`: stdout (without --out) carries NDJSON only, so everything else (progress,
 * kafkajs's warnings through the Nest logger) is sent to stderr.
 */
export async function runTopicExport(
  settings: KafkaSettings,
  args: ExportArgs,
  stdout: Writable & { isTTY?: boolean } = process.stdout,
  stderr: Writable & { isTTY?: boolean } = process.stderr,
): Promise<TopicExportResult | null> {
  Logger.overrideLogger(new StderrLogger(stderr));
  const selection = selectionFromArgs(args, Date.now());
  const output = args.out ? fs.createWriteStream(args.out) : stdout;
  // A path that cannot be written fails here, before anything is read.
  if (args.out) await once(output, 'open');
  let result: TopicExportResult;
  try {
    result = await exportTopic(
      createKafka(settings),
      { topic: args.topic, prefix: settings.prefix, selection },
      streamSink(output),
      new ExportProgress(stderr),
    );
  } catch (error) {
    // `export … | head`: the reader has what it wanted; that is an end, not a failure.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE' || args.out) throw error;
    stderr.write('export: stopped, the output was closed by its reader\n');
    return null;
  }
  if (args.out) {
    output.end();
    await once(output, 'finish');
  }
  return result;
}
