import { ownerDataSource } from '@agentwatch/db';
import {
  createKafka,
  DlqListArgs,
  DlqRedriveArgs,
  dlqList,
  dlqRedrive,
  dlqShow,
  KafkaSettings,
  StderrLogger,
} from '@agentwatch/kafka';
import { Logger } from '@nestjs/common';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { cliConfigFromEnv } from './config';

const CLIENT_ID = 'agentwatch-dlq';

/** The redrive ledger is an operator's table: read and written as the owner, like create-org does. */
async function withLedger<T>(fn: (dataSource: DataSource, settings: KafkaSettings) => Promise<T>): Promise<T> {
  const { database, kafka } = cliConfigFromEnv(['database', 'kafka'], CLIENT_ID);
  const dataSource = await ownerDataSource(database).initialize();
  try {
    return await fn(dataSource, kafka);
  } finally {
    await dataSource.destroy();
  }
}

/** `agentwatch dlq list|show|redrive`: the records a schema or the database refused, and their way back. */
export function dlqCommand(): Command {
  const dlq = new Command('dlq')
    .description('inspect dead-letter topics and re-drive their records')
    // stdout carries the listing (or `show`'s JSON) only; the Kafka client's warnings go to stderr.
    .hook('preAction', () => Logger.overrideLogger(new StderrLogger(process.stderr)));
  dlq
    .command('list')
    .description('one line per dead letter (where, source, org, projection, SQLSTATE, error), then a count per topic')
    .option('--topic <name>', 'a source topic or its .dlq topic, without the deployment prefix (default: all)')
    .option('--limit <n>', 'print at most this many dead letters (the counts stay whole)')
    .action(async (options: DlqListArgs) => {
      await withLedger((dataSource, settings) => dlqList(createKafka(settings), dataSource, settings, options));
    });
  dlq
    .command('show <dlq-topic> <partition> <offset>')
    .description('print one dead letter whole: headers, key, and its value as pretty-printed JSON')
    .action(async (topic: string, partition: string, offset: string) => {
      const settings = cliConfigFromEnv(['kafka'], CLIENT_ID).kafka;
      await dlqShow(createKafka(settings), settings, topic, partition, offset);
    });
  dlq
    .command('redrive')
    .description('re-produce dead letters to the partition they came from; each one once, however often it is run')
    .option('--topic <name>', 'a source topic or its .dlq topic, without the deployment prefix (default: all)')
    .option('--org <id>', 'only dead letters of this organization')
    .option('--dry-run', 'print what would be re-driven, send nothing')
    .action(async (options: DlqRedriveArgs) => {
      await withLedger((dataSource, settings) => dlqRedrive(createKafka(settings), dataSource, settings, options));
    });
  return dlq;
}
