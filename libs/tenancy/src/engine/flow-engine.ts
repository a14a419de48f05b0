import { Queryable } from '@agentwatch/db';
import { failpoint } from '@agentwatch/kafka';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Context, EngineCommand, Step } from '../domain/commands';
import { FlowConflict } from '../domain/errors';
import { decide, FlowState, nextStep, onboardOf } from '../domain/flow';
import { OnboardState } from '../domain/onboard';
import { chooseCell, retryDelayMs } from '../domain/policy';
import { RouteState, routeOf } from '../domain/route';
import { appendToFlow, loadFlow } from '../journal/journal';
import { TenancySettings } from '../tenancy.settings';
import { enqueueToken } from '../tenant-flows';
import { createAndMigrate, dropDatabase, serverOf } from './cell-databases';
import { createDataKey, destroyDataKey, eraseIdentity, lockedRoute, publishRoute } from './route-directory';

/** TypeORM answers UPDATE/DELETE … RETURNING on Postgres with [rows, affected]. */
export function returned<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/** A step that cannot succeed now; the reason goes to the journal as is (`no_placeable_cell`). */
export class StepFailure extends Error {}

/**
 * The process manager: wakes flows whose timer is due (a durable table, so a restart loses
 * nothing), runs the step their state calls for and records its outcome as the next event. A claim
 * is a lease: a crash mid-step leaves the timer due again once the lease ends, and every step is
 * idempotent, so the retry creates nothing twice.
 */
@Injectable()
export class FlowEngine implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('flow-engine');
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: TenancySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.tick();
      } catch (error) {
        if (this.running) this.logger.error(`engine tick failed: ${(error as Error).message}`);
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.settings.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  /** Claims one due flow and runs its step; false when nothing was due. */
  async tick(): Promise<boolean> {
    const claimed = returned<{ stream_id: string }>(
      await this.dataSource.query(
        `UPDATE tenancy_timers t SET due_at = now() + make_interval(secs => $1::double precision / 1000)
         FROM (SELECT stream_id FROM tenancy_timers WHERE due_at <= now()
                ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED) due
        WHERE t.stream_id = due.stream_id
        RETURNING t.stream_id`,
        [this.settings.stepLeaseMs],
      ),
    );
    if (claimed.length === 0) return false;
    await this.advance(claimed[0].stream_id);
    return true;
  }

  private context(): Context {
    return { actor: 'system:flow-engine', role: 'system', now: new Date().toISOString() };
  }

  private async advance(streamId: string): Promise<void> {
    const { state, version } = await loadFlow(this.dataSource.manager, streamId);
    if (state === null) return;
    const step = nextStep(state);
    if (step === null) {
      await this.dataSource.query('DELETE FROM tenancy_timers WHERE stream_id = $1', [streamId]);
      return;
    }
    try {
      await this.runStep(step, state, version);
    } catch (error) {
      if (error instanceof FlowConflict) {
        // Someone else (an operator, another engine) moved the flow first; its append set the timer.
        this.logger.debug?.(`flow ${streamId} moved under step ${step}: ${error.message}`);
        return;
      }
      const reason = error instanceof StepFailure ? error.message : `${step}: ${(error as Error).message}`;
      this.logger.warn(`flow ${state.slug} step ${step} failed (attempt ${state.attempts + 1}): ${reason}`);
      await this.recordFailure(streamId, step, reason);
    }
  }

  private async recordFailure(streamId: string, step: Step, reason: string): Promise<void> {
    await this.dataSource
      .transaction(async (tx) => {
        const { state, version } = await loadFlow(tx, streamId);
        if (state === null) return;
        const attempt = state.attempts + 1;
        const delay = retryDelayMs(this.settings.retry, attempt, Math.random);
        const ctx = this.context();
        const nextRetryAt = new Date(Date.parse(ctx.now) + delay).toISOString();
        const command: EngineCommand = { type: 'FailStep', step, reason, nextRetryAt };
        await appendToFlow(tx, streamId, version, state, decide(command, state, ctx, this.settings.retry.maxAttempts));
      })
      .catch((error) => {
        if (!(error instanceof FlowConflict)) throw error;
      });
  }

  /** Decides and appends in a transaction, re-reading the flow so a concurrent change wins cleanly. */
  private async commit(
    streamId: string,
    expected: number,
    build: (tx: Queryable, state: FlowState) => Promise<EngineCommand[]> | EngineCommand[],
    after?: (tx: Queryable, state: FlowState) => Promise<void>,
  ): Promise<FlowState> {
    return this.dataSource.transaction(async (tx) => {
      const { state, version } = await loadFlow(tx, streamId);
      if (state === null || version !== expected) throw new FlowConflict('the flow moved on');
      let current = state;
      let at = version;
      for (const command of await build(tx, state)) {
        const events = decide(command, current, this.context(), this.settings.retry.maxAttempts);
        current = await appendToFlow(tx, streamId, at, current, events);
        at += events.length;
      }
      await after?.(tx, current);
      return current;
    });
  }

  /** Writes and publishes the tenant's route in `state`, in the transaction of the step that changes it. */
  private async publish(tx: Queryable, tenant: FlowState, state: RouteState): Promise<void> {
    const route = routeOf(tenant, state, serverOf(this.cellOf(tenant)));
    await publishRoute(tx, tenant.tenantId, route, this.context().now);
  }

  /**
   * Retires a tenant's route (published `deprovisioned`, so routing stops before anything is
   * dropped) and destroys its data key; false when it never had a route.
   */
  private async retireRoute(tx: Queryable, tenant: FlowState): Promise<boolean> {
    const route = await lockedRoute(tx, tenant.orgId);
    if (route === null) return false;
    if (route.state !== 'deprovisioned') await this.publish(tx, tenant, 'deprovisioned');
    await destroyDataKey(tx, tenant.orgId);
    return true;
  }

  private cellOf(state: FlowState) {
    const cell = this.settings.cells.find((c) => c.id === state.placement.cell);
    if (!cell) throw new StepFailure(`cell ${state.placement.cell} is not configured`);
    return cell;
  }

  private async runStep(step: Step, state: FlowState, version: number): Promise<void> {
    const id = state.flowId;
    switch (step) {
      case 'request-approval':
        await this.commit(id, version, () => [{ type: 'RequestApproval' }]);
        return;
      case 'place':
        await this.commit(
          id,
          version,
          async (tx) => {
            // Placements are serialised so two flows never take the last seat of a cell together.
            await tx.query(`SELECT pg_advisory_xact_lock(hashtext('tenancy-placement'))`);
            const rows: { cell: string; used: number }[] = await tx.query(
              `SELECT detail->'placement'->>'cell' AS cell, count(*)::int AS used FROM tenancy_flows
              WHERE kind = 'onboard' AND detail->'placement'->>'cell' IS NOT NULL
                AND (live OR NOT (detail->>'compensated')::boolean)
              GROUP BY 1`,
            );
            const used = Object.fromEntries(rows.map((r) => [r.cell, r.used]));
            const cell = chooseCell(this.settings.cells, state.placement.region, used);
            if (!cell) throw new StepFailure('no_placeable_cell');
            return [{ type: 'PlaceInCell', cell: cell.id, region: cell.region }];
          },
          async (tx, placed) => {
            // The route exists (and is on its way to the data plane) before any credential of the tenant can.
            await this.publish(tx, placed, 'provisioning');
            await createDataKey(tx, placed.orgId);
          },
        );
        return;
      case 'create-database': {
        const schemaVersion = await createAndMigrate(
          this.cellOf(state),
          state.placement.database_name as string,
          this.settings.rolePassword,
          () => failpoint('control-plane.after-create-database'),
        );
        await this.commit(id, version, () => [{ type: 'RecordDatabaseMigrated', schemaVersion }]);
        return;
      }
      case 'route':
        await this.commit(id, version, async (tx) => {
          await this.publish(tx, state, 'active');
          return [{ type: 'RecordRoute', schemaVersion: state.placement.schema_version }];
        });
        return;
      case 'await-checkin':
        await this.commit(id, version, async (tx) => {
          // A daemon may have checked in before the route existed (tokens work from db-ready on).
          const [seen] = await tx.query('SELECT machine_id, checked_in_at FROM tenancy_checkins WHERE org_id = $1', [
            state.orgId,
          ]);
          const commands: EngineCommand[] = [{ type: 'AwaitFirstCheckin' }];
          if (seen) {
            commands.push({
              type: 'RecordFirstCheckin',
              machineId: seen.machine_id,
              checkedInAt: new Date(seen.checked_in_at).toISOString(),
            });
          }
          return commands;
        });
        return;
      case 'compensate': {
        // Routing stops (the route is published `deprovisioned`) before the database is dropped.
        const removedRoute = await this.dataSource.transaction((tx) => this.retireRoute(tx, state));
        const placed = state.placement.cell && state.placement.database_name;
        const dropped =
          placed && (await dropDatabase(this.cellOf(state), state.placement.database_name as string))
            ? state.placement.database_name
            : null;
        await this.commit(id, version, async (tx) => {
          const revoked = await this.revokeTokens(tx, onboardOf(state));
          // Tokens minted from db-ready on may have been projected into the shared database already.
          await eraseIdentity(tx, state.orgId);
          return [{ type: 'RecordResourcesReleased', droppedDatabase: dropped, removedRoute, revokedTokens: revoked }];
        });
        return;
      }
      case 'revoke-tokens':
        await this.commit(id, version, async (tx) => {
          const tenant = onboardOf((await loadFlow(tx, state.tenantId)).state);
          return [{ type: 'RecordTokensRevoked', revoked: await this.revokeTokens(tx, tenant) }];
        });
        return;
      case 'remove-route':
        await this.commit(id, version, async (tx) => {
          await this.retireRoute(tx, state);
          return [{ type: 'RecordRouteRemoved' }];
        });
        return;
      case 'erase-identity':
        await this.commit(id, version, async (tx) => [
          { type: 'RecordIdentityErased', erased: await eraseIdentity(tx, state.orgId) },
        ]);
        return;
      case 'drop-database': {
        if (state.placement.cell && state.placement.database_name) {
          await dropDatabase(this.cellOf(state), state.placement.database_name);
        }
        await this.commit(id, version, async (tx) => {
          const tenant = await loadFlow(tx, state.tenantId);
          const events = decide(
            { type: 'RecordTenantDeprovisioned', offboardFlowId: id },
            tenant.state,
            this.context(),
          );
          await appendToFlow(tx, state.tenantId, tenant.version, tenant.state, events);
          return [{ type: 'RecordDatabaseDropped' }];
        });
        return;
      }
    }
  }

  private async revokeTokens(tx: Queryable, tenant: OnboardState): Promise<number> {
    const now = new Date().toISOString();
    const list = returned<{ id: string; token_hash: string; prefix: string }>(
      await tx.query(
        `UPDATE tenancy_tokens SET revoked_at = $2 WHERE tenant_id = $1 AND revoked_at IS NULL
         RETURNING id, token_hash, prefix`,
        [tenant.tenantId, now],
      ),
    );
    for (const token of list) await enqueueToken(tx, tenant, token, 'revoked', now);
    return list.length;
  }
}
