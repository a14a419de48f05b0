import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoSuchFlow } from '../domain/errors';
import { flowsOfSlug, JournalRow } from '../journal/journal';

export interface StreamCursor {
  tenantId: string;
  /** While an offboard flow is live, the replay shows that flow only (spec §3, §6). */
  replayStream: string | null;
}

export const sseFrame = (row: JournalRow): string => {
  const data = {
    position: Number(row.position),
    flow_id: row.stream_id,
    flow_kind: row.flow_kind,
    slug: row.slug,
    version: row.version,
    type: row.type,
    data: row.data,
    actor: row.actor,
    recorded_at: new Date(row.recorded_at).toISOString(),
  };
  return `id: ${row.position}\nevent: ${row.type}\ndata: ${JSON.stringify(data)}\n\n`;
};

/** Reads a tenant's journal in position order; the SSE route replays it, then follows it. */
@Injectable()
export class JournalStream {
  constructor(private readonly dataSource: DataSource) {}

  async open(slug: string): Promise<StreamCursor> {
    const { onboard, offboard } = await flowsOfSlug(this.dataSource.manager, slug);
    if (!onboard) throw new NoSuchFlow(`no tenant ${slug}`);
    return { tenantId: onboard.stream_id, replayStream: offboard?.live ? offboard.stream_id : null };
  }

  async after(cursor: StreamCursor, position: bigint, replay: boolean): Promise<JournalRow[]> {
    const byStream = replay && cursor.replayStream !== null;
    return this.dataSource.query(
      `SELECT * FROM tenancy_journal WHERE ${byStream ? 'stream_id' : 'tenant_id'} = $1 AND position > $2
        ORDER BY position LIMIT 500`,
      [byStream ? cursor.replayStream : cursor.tenantId, position.toString()],
    );
  }
}
