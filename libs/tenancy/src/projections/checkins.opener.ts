import { openValue, SEALED_V1, sealingKeyOf, UnreadableSealedValue } from '@agentwatch/cells';
import { PayloadOpener, SEALED_HEADER } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Opens a provisioned tenant's sealed check-ins with its data key, read from the directory the
 * control plane owns (`tenancy_data_keys`); check-ins are rare, so nothing is cached. No key: the
 * tenant was deprovisioned and its check-ins are erased (null: the runner skips them).
 */
@Injectable()
export class CheckinsOpener extends PayloadOpener {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async open(orgId: string, value: Buffer, headers: Record<string, string | undefined>): Promise<string | null> {
    const scheme = headers[SEALED_HEADER];
    if (scheme === undefined) return value.toString('utf8');
    if (scheme !== SEALED_V1) throw new UnreadableSealedValue(`unknown sealing scheme ${SEALED_HEADER}: ${scheme}`);
    const [row] = await this.dataSource.query('SELECT key FROM tenancy_data_keys WHERE org_id = $1', [orgId]);
    return row ? openValue(sealingKeyOf(row.key as Buffer, orgId), value.toString('ascii')) : null;
  }
}
