import { DataSource, EntityManager } from 'typeorm';
import { grantPrivileges } from './bootstrap';
import { ROLE_NAMES } from './database.config';

const CHECKPOINTS = 'projection_checkpoints';
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}

/** A live table's trigger or index definition, pointed at that table's copy in the rebuild schema. */
function onCopy(definition: string, table: string, schema: string): string {
  const retargeted = definition.replace(` ON public.${table} `, ` ON ${schema}.${table} `);
  if (retargeted === definition) throw new Error(`cannot re-target to ${schema}.${table}: ${definition}`);
  return retargeted;
}

/**
 * A rebuild writes into a schema of its own that holds empty copies of the read-model tables and of
 * the checkpoints table. Projections address tables unqualified, so with that schema first on the
 * search path the very same projection code fills the copies while the live tables keep serving.
 */
export async function prepareRebuildSchema(owner: DataSource, schema: string, tables: string[]): Promise<void> {
  const s = identifier(schema);
  await owner.query(`CREATE SCHEMA ${s}`);
  for (const table of [...tables, CHECKPOINTS].map(identifier)) {
    await owner.query(`CREATE TABLE ${s}.${table} (LIKE public.${table} INCLUDING ALL)`);
    // LIKE copies no storage parameters either (events' fillfactor).
    const [{ reloptions }] = await owner.query(`SELECT reloptions FROM pg_class WHERE oid = $1::regclass`, [
      `public.${table}`,
    ]);
    if (reloptions) await owner.query(`ALTER TABLE ${s}.${table} SET (${(reloptions as string[]).join(', ')})`);
    // LIKE copies no triggers; the copies need the live tables' (they move with the table on swap).
    const triggers = await owner.query(
      `SELECT pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t WHERE t.tgrelid = $1::regclass AND NOT t.tgisinternal`,
      [`public.${table}`],
    );
    for (const { definition } of triggers) {
      await owner.query(onCopy(definition, table, s));
    }
  }
  // A bulk load is faster into a table whose secondary indexes are built once at the end than into one
  // that maintains them row by row (a replay slowed down as the 10M-row indexes grew). Unique
  // indexes stay: upserts need them. No projection reads its own table by a non-unique index.
  for (const { name } of await secondaryIndexes(owner, s, tables)) await owner.query(`DROP INDEX ${s}.${name}`);
  await owner.query(`GRANT USAGE ON SCHEMA ${s} TO ${ROLE_NAMES.projector}`);
  await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${ROLE_NAMES.projector}`);
}

async function secondaryIndexes(
  q: { query: DataSource['query'] },
  schema: string,
  tables: string[],
): Promise<{ name: string; table: string; definition: string }[]> {
  return q.query(
    `SELECT i.relname AS name, t.relname AS "table", pg_get_indexdef(i.oid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND t.relname = ANY($2) AND NOT x.indisunique
      ORDER BY t.relname, i.relname`,
    [schema, tables],
  );
}

/** Builds the live tables' secondary indexes, under their live names, on the loaded copies. */
async function buildDeferredIndexes(owner: DataSource, schema: string, tables: string[]): Promise<void> {
  await owner.transaction(async (tx) => {
    await tx.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const index of await secondaryIndexes(tx, 'public', tables)) {
      await tx.query(onCopy(index.definition, index.table, schema));
    }
  });
}

export async function dropRebuildSchema(owner: DataSource, schema: string): Promise<void> {
  await owner.query(`DROP SCHEMA IF EXISTS ${identifier(schema)} CASCADE`);
}

/** Carries row-level security, its policies and the index names of the live table over to its replacement. */
async function carryOver(tx: EntityManager, table: string, retired: string): Promise<void> {
  const [flags] = await tx.query(
    `SELECT c.relrowsecurity, c.relforcerowsecurity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2`,
    [retired, table],
  );
  if (flags.relrowsecurity) await tx.query(`ALTER TABLE public.${table} ENABLE ROW LEVEL SECURITY`);
  if (flags.relforcerowsecurity) await tx.query(`ALTER TABLE public.${table} FORCE ROW LEVEL SECURITY`);
  const policies = await tx.query(
    'SELECT policyname, cmd, qual, with_check FROM pg_policies WHERE schemaname = $1 AND tablename = $2',
    [retired, table],
  );
  for (const p of policies) {
    await tx.query(
      `CREATE POLICY ${identifier(p.policyname)} ON public.${table} FOR ${p.cmd}` +
        (p.qual ? ` USING (${p.qual})` : '') +
        (p.with_check ? ` WITH CHECK (${p.with_check})` : ''),
    );
  }
  // LIKE … INCLUDING ALL names indexes after their columns; give them back their migration names.
  const body = (definition: string) => definition.slice(definition.indexOf(' USING '));
  const oldIndexes = await tx.query(
    'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2',
    [retired, table],
  );
  const newIndexes = await tx.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1`,
    [table],
  );
  for (const old of oldIndexes) {
    const twin = newIndexes.find((n: { indexdef: string }) => body(n.indexdef) === body(old.indexdef));
    if (twin && twin.indexname !== old.indexname) {
      await tx.query(`ALTER INDEX public.${identifier(twin.indexname)} RENAME TO ${identifier(old.indexname)}`);
    }
  }
}

/**
 * Builds the loaded copies' deferred indexes and gathers their planner statistics: the slow part of
 * a swap, done before its lock is taken.
 */
export async function finishRebuild(owner: DataSource, schema: string, tables: string[]): Promise<void> {
  const s = identifier(schema);
  await buildDeferredIndexes(owner, s, tables.map(identifier));
  // Freshly built tables have no planner statistics until autovacuum gets to them: gathered before
  // the swap (outside its lock), queries over a rebuilt 10M-row table are planned right at once.
  for (const table of tables.map(identifier)) await owner.query(`ANALYZE ${s}.${table}`);
}

/**
 * Swaps rebuilt tables in, in one transaction: queries see either the old read models or the new
 * ones, never a half-built one. The live consumer groups' checkpoints become the rebuild's, so the
 * running projector (fenced by its compare-and-set) re-reads from where the rebuild stopped.
 */
export async function swapInRebuild(
  owner: DataSource,
  schema: string,
  tables: string[],
  groups: { rebuild: string; live: string }[],
): Promise<void> {
  await finishRebuild(owner, schema, tables);
  await swapInFinished(owner, schema, tables, groups);
}

/**
 * The swap of swapInRebuild, for copies finishRebuild has finished. `beforeCommit` runs with the swap
 * done and not committed yet, the live checkpoints' rows locked: a rebuild spanning several databases
 * swaps the others in there.
 */
export async function swapInFinished(
  owner: DataSource,
  schema: string,
  tables: string[],
  groups: { rebuild: string; live: string }[],
  beforeCommit?: () => Promise<void>,
): Promise<void> {
  const s = identifier(schema);
  const retired = identifier(`${schema}_retired`);
  await owner.transaction(async (tx) => {
    await tx.query(`CREATE SCHEMA ${retired}`);
    for (const table of tables.map(identifier)) {
      await tx.query(`LOCK TABLE public.${table} IN ACCESS EXCLUSIVE MODE`);
      await tx.query(`ALTER TABLE public.${table} SET SCHEMA ${retired}`);
      await tx.query(`ALTER TABLE ${s}.${table} SET SCHEMA public`);
      await carryOver(tx, table, retired);
    }
    for (const { rebuild, live } of groups) {
      await tx.query(`DELETE FROM public.${CHECKPOINTS} WHERE consumer_group = $1`, [live]);
      await tx.query(
        `INSERT INTO public.${CHECKPOINTS} (consumer_group, topic, partition, next_offset)
         SELECT $1, topic, partition, next_offset FROM ${s}.${CHECKPOINTS} WHERE consumer_group = $2`,
        [live, rebuild],
      );
    }
    await grantPrivileges(tx);
    await tx.query(`DROP SCHEMA ${retired} CASCADE`);
    await tx.query(`DROP SCHEMA ${s} CASCADE`);
    await beforeCommit?.();
  });
}
