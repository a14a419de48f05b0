import { Injectable } from '@nestjs/common';
import { Kafka } from 'kafkajs';

/** True when the cluster answers a metadata request within the timeout. */
export async function kafkaAnswers(kafka: Kafka, timeoutMs = 2000): Promise<void> {
  const admin = kafka.admin({ retry: { retries: 0 } });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        await admin.connect();
        await admin.describeCluster();
      })(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => undefined);
  }
}

/** The /ready probe of the broker (a ReadinessCheck of libs/http, by shape: kafka does not import http). */
@Injectable()
export class KafkaHealth {
  readonly name = 'kafka';

  constructor(private readonly kafka: Kafka) {}

  check(timeoutMs?: number): Promise<void> {
    return kafkaAnswers(this.kafka, timeoutMs);
  }
}
