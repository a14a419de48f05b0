export interface TopicBatch<M> {
  topic: string;
  messages: M[];
}

export interface CoalescerOptions<M> {
  /** Sends one merged request; resolves when the broker acknowledged every record of it. */
  send: (batches: TopicBatch<M>[]) => Promise<void>;
  /** The size of one record, for the cap below. */
  sizeOf: (message: M) => number;
  /** A merged request stops growing past this many bytes (a single call is never split). */
  maxRequestBytes: number;
  /**
   * A call neither acknowledged nor failed within this many ms fails with `onTimeout(sent)`: `sent`
   * false means it was still queued and is withdrawn (certainly not appended); true means its request
   * is with the broker, which may still append it.
   */
  timeoutMs: number;
  onTimeout: (sent: boolean) => Error;
}

interface Pending<M> {
  batches: TopicBatch<M>[];
  bytes: number;
  settled: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * Group commit for produce calls. The idempotent producer allows one request in flight, so
 * concurrent calls would otherwise queue one round trip each; here, the calls that arrive while a
 * request is in flight leave together in the next one, and each resolves when that request is
 * acknowledged. A call that times out while still queued is withdrawn and never sent.
 */
export class ProduceCoalescer<M> {
  private readonly queue: Pending<M>[] = [];
  private sending = false;

  constructor(private readonly options: CoalescerOptions<M>) {}

  publish(batches: TopicBatch<M>[]): Promise<void> {
    const wanted = batches.filter((batch) => batch.messages.length > 0);
    if (wanted.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const pending: Pending<M> = {
        batches: wanted,
        bytes: wanted.reduce((sum, b) => sum + b.messages.reduce((s, m) => s + this.options.sizeOf(m), 0), 0),
        settled: false,
        resolve,
        reject,
        timer: setTimeout(() => {
          const queued = this.queue.indexOf(pending);
          if (queued >= 0) this.queue.splice(queued, 1);
          this.settle(pending, this.options.onTimeout(queued < 0));
        }, this.options.timeoutMs),
      };
      this.queue.push(pending);
      if (!this.sending) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const group = this.takeGroup();
        try {
          await this.options.send(merge(group.flatMap((p) => p.batches)));
          for (const pending of group) this.settle(pending);
        } catch (error) {
          for (const pending of group) this.settle(pending, error);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** The oldest call, then the following ones while the request stays under the byte cap. */
  private takeGroup(): Pending<M>[] {
    const group = [this.queue.shift() as Pending<M>];
    let bytes = group[0].bytes;
    while (this.queue.length > 0 && bytes + this.queue[0].bytes <= this.options.maxRequestBytes) {
      const next = this.queue.shift() as Pending<M>;
      bytes += next.bytes;
      group.push(next);
    }
    return group;
  }

  private settle(pending: Pending<M>, error?: unknown): void {
    if (pending.settled) return;
    pending.settled = true;
    clearTimeout(pending.timer);
    if (error === undefined) pending.resolve();
    else pending.reject(error);
  }
}

function merge<M>(batches: TopicBatch<M>[]): TopicBatch<M>[] {
  const byTopic = new Map<string, M[]>();
  for (const { topic, messages } of batches) {
    const merged = byTopic.get(topic);
    if (!merged) byTopic.set(topic, [...messages]);
    else for (const message of messages) merged.push(message);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
