import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The /ready probe of the app's own pool: a round trip through the role the app connects with. */
@Injectable()
export class PostgresHealth {
  readonly name = 'postgres';

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async check(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
