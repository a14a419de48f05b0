import { TOPICS } from '@agentwatch/contracts';
import { DynamicModule, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { EventPublisher } from './event-publisher';
import { createKafka } from './kafka.client';
import { KafkaSettings } from './kafka.settings';
import { KafkaHealth } from './kafka-health';
import { ensureTopics } from './topic-admin';
import { TopicTails } from './topic-tail';

@Injectable()
class TopicsAtStartup implements OnModuleInit {
  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    await ensureTopics(this.kafka, this.settings, Object.values(TOPICS));
  }
}

@Module({})
export class KafkaModule {
  static forRoot(settings: KafkaSettings): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      providers: [
        { provide: KafkaSettings, useValue: settings },
        { provide: Kafka, useFactory: () => createKafka(settings) },
        TopicsAtStartup,
        EventPublisher,
        KafkaHealth,
        TopicTails,
      ],
      exports: [KafkaSettings, Kafka, EventPublisher, KafkaHealth, TopicTails],
    };
  }
}
