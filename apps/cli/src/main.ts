import { ensureDevIssuerKeys, mintDevToken } from '@agentwatch/auth';
import { TOPICS } from '@agentwatch/contracts';
import { bootstrapDatabase, dropTestDatabase, ensureAutovacuum, ownerDataSource } from '@agentwatch/db';
import { insertDeployToken, insertOrganization } from '@agentwatch/identity';
import { createKafka, deleteTopicsWithPrefix, ExportArgs, ensureTopics, runTopicExport } from '@agentwatch/kafka';
import { migrateAllTenants } from '@agentwatch/tenancy';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { cliConfigFromEnv } from './config';
import { dlqCommand } from './dlq';
import { replayCommand } from './replay';
import { SimulateArgs, simulate } from './simulate';
import { TailArgs, tail } from './tail';

const program = new Command('agentwatch').description('agentwatch operations CLI');

program
  .command('setup')
  .description('create the database, roles and topics when missing, and run migrations (idempotent)')
  .action(async () => {
    const { database, kafka: settings, auth } = cliConfigFromEnv(['database', 'kafka', 'auth']);
    const applied = await bootstrapDatabase(database);
    console.log(`database ${database.database}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
    const autovacuum = await ensureAutovacuum(database.adminUrl);
    if (autovacuum === 'turned-on') console.log('autovacuum was off on this server: turned on (ALTER SYSTEM)');
    if (autovacuum === 'off')
      console.warn(
        'warning: autovacuum is off on this server; tables get no planner statistics and large ones slow down',
      );
    const created = await ensureTopics(createKafka(settings), settings, Object.values(TOPICS));
    console.log(
      `topics: ${created.length ? `created ${created.length}` : 'all present'} (prefix "${settings.prefix}")`,
    );
    if (!auth.jwksUrl) {
      await ensureDevIssuerKeys(auth.devIssuerDir);
      console.log(
        `development JWT issuer: keys in ${auth.devIssuerDir} (mint tokens with: agentwatch dev-token --sub <name>)`,
      );
    }
  });

program
  .command('migrate')
  .description(
    'run the product migrations on every provisioned tenant database (on its cell) and publish the new routes',
  )
  .requiredOption('--all-tenants', 'every tenant database of an active route (the only mode)')
  .action(async () => {
    const { database, cells } = cliConfigFromEnv(['database', 'cells']);
    // The control plane's role: routes and the outbox are its tables; migrations run as the owner on each cell.
    const dataSource = await new DataSource({ type: 'postgres', url: database.controlUrl }).initialize();
    try {
      const done = await migrateAllTenants(dataSource, cells, database.rolePassword, (m) =>
        console.log(
          `${m.slug} (${m.cell}/${m.database}): schema ${m.from ?? 'none'} → ${m.to}${m.published ? ', route published' : ', route up to date'}`,
        ),
      );
      console.log(`tenant databases: ${done.length} migrated`);
    } finally {
      await dataSource.destroy();
    }
  });

program
  .command('dev-token')
  .description('mint a JWT from the local development issuer (only while AUTH_JWKS_URL is unset)')
  .requiredOption('--sub <subject>', 'the user the token is for')
  .option('--org <id>', 'organization id claim (omit to act through the memberships made by POST /v1/tenant)')
  .option('--ttl <seconds>', 'lifetime in seconds', '3600')
  .action(async (options: { sub: string; org?: string; ttl: string }) => {
    const { auth } = cliConfigFromEnv(['auth']);
    if (auth.jwksUrl)
      throw new Error('AUTH_JWKS_URL is set: tokens come from that identity provider, not from the dev issuer');
    await ensureDevIssuerKeys(auth.devIssuerDir);
    const claims = options.org ? { sub: options.sub, [auth.orgClaim]: options.org } : { sub: options.sub };
    console.log(await mintDevToken(auth.devIssuerDir, claims, Number(options.ttl)));
  });

program
  .command('create-org')
  .description('create an organization and its first deploy token; prints the raw token once')
  .requiredOption('--name <name>', 'organization name')
  .option('--token-name <name>', 'label of the deploy token', 'default')
  .action(async (options: { name: string; tokenName: string }) => {
    // The owner role, not the API role: creating organizations from the command line is an operator's act.
    const { database } = cliConfigFromEnv(['database']);
    const dataSource = await ownerDataSource(database).initialize();
    try {
      const orgId = uuidv7();
      const result = await dataSource.transaction(async (tx) => {
        await tx.query(`SELECT set_config('app.org_id', $1, true)`, [orgId]);
        const organization = await insertOrganization(tx, orgId, options.name);
        const token = await insertDeployToken(tx, orgId, uuidv7(), options.tokenName);
        return { organization, deploy_token: token };
      });
      console.log(JSON.stringify(result, null, 2));
    } finally {
      await dataSource.destroy();
    }
  });

program
  .command('export')
  .description(
    'stream a topic range as NDJSON (one record a line: topic, partition, offset, key, timestamp, headers, payload)',
  )
  .requiredOption('--topic <name>', 'topic without the deployment prefix, e.g. ingest.events.v1')
  .option('--org <id>', 'only records whose org_id header is this organization')
  .option('--since <time>', 'records at or after: ISO 8601, epoch ms, or a duration ago (90m, 2h, 7d)')
  .option('--until <time>', 'records at or before (same forms as --since)')
  .option('--type <ce_type>', 'only records of this CloudEvents type, e.g. agentwatch.ingest.event.v1')
  .option('--out <file>', 'write the NDJSON to a file instead of stdout')
  .action(async (options: ExportArgs) => {
    await runTopicExport(cliConfigFromEnv(['kafka'], 'agentwatch-export').kafka, options);
  });

program.addCommand(dlqCommand());

program
  .command('teardown-test-run')
  .description('drop a test run database and delete its topics')
  .requiredOption('--prefix <prefix>', 'topic prefix of the run')
  .action(async (options: { prefix: string }) => {
    const { database, kafka } = cliConfigFromEnv(['database', 'kafka']);
    await dropTestDatabase(database.adminUrl, database.database);
    await deleteTopicsWithPrefix(createKafka(kafka), options.prefix);
    console.log(`dropped ${database.database} and topics ${options.prefix}*`);
  });

program.addCommand(replayCommand());

program
  .command('tail <slug>')
  .description("follow a tenant flow's events (control plane SSE), reconnecting where it left off")
  .option('--url <url>', 'control plane URL', process.env.CONTROL_PLANE_URL ?? 'http://127.0.0.1:8082')
  .option('--token <jwt>', 'operator or viewer token (default: $OPERATOR_TOKEN)', process.env.OPERATOR_TOKEN)
  .action((slug: string, options: TailArgs) => tail(slug, options));

program
  .command('simulate')
  .description('run a deterministic daemon fleet (machines, sessions, sub-sessions, events) against the cloud API')
  .option('--daemons <k>', 'daemons, each registering a machine', '10')
  .option('--batch <b>', 'items per request (events and lifecycle records)', '500')
  .option('--events <n>', 'items in total', '10000')
  .option('--seed <s>', 'PRNG seed: the same seed sends the same traffic', '1')
  .option('--gzip', 'gzip request bodies')
  .option('--event-ids', 'attach client event_ids')
  .option('--api <url>', 'cloud API base URL', 'http://127.0.0.1:8080')
  .option('--token <deploy-token>', 'deploy token (default: AGENTWATCH_DEPLOY_TOKEN or .local/dev-org.json)')
  .option('--concurrency <c>', 'requests in flight', '8')
  .option('--start <time>', 'ISO time of the first item (default: an hour ago)')
  .option('--print', 'print the batches as NDJSON instead of sending them')
  .action((options: SimulateArgs) => simulate(options));

program.parseAsync().catch((error) => {
  console.error(`agentwatch: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
