import { DatabaseModule } from '@agentwatch/db';
import { KafkaModule } from '@agentwatch/kafka';
import { TenancyModule } from '@agentwatch/tenancy';
import { DynamicModule, Module } from '@nestjs/common';
import { ControlPlaneConfig } from './config';

@Module({})
export class ControlPlaneModule {
  static forRoot(config: ControlPlaneConfig): DynamicModule {
    return {
      module: ControlPlaneModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.database.controlUrl,
          applicationName: 'agentwatch-control-plane',
          poolSize: 10,
        }),
        KafkaModule.forRoot(config.kafka),
        TenancyModule.forRoot(config.tenancy),
      ],
    };
  }
}
