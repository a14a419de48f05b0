import { ProduceCoalescer, TopicBatch } from './produce-coalescer';

class Timeout extends Error {}

/** A sender whose requests the test acknowledges or fails one by one. */
function recordingSender() {
  const requests: { batches: TopicBatch<string>[]; ack: () => void; fail: (error: Error) => void }[] = [];
  const send = (batches: TopicBatch<string>[]) =>
    new Promise<void>((ack, fail) => {
      requests.push({ batches, ack, fail });
    });
  return { requests, send };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function coalescer(send: (b: TopicBatch<string>[]) => Promise<void>, maxRequestBytes = 1000, timeoutMs = 60_000) {
  return new ProduceCoalescer<string>({
    send,
    sizeOf: (m) => m.length,
    maxRequestBytes,
    timeoutMs,
    onTimeout: (sent) => new Timeout(sent ? 'sent' : 'withdrawn'),
  });
}

describe('ProduceCoalescer', () => {
  it('sends the first call at once and merges the calls that arrive meanwhile into one request, by topic, in order', async () => {
    const { requests, send } = recordingSender();
    const produce = coalescer(send);
    const settled: string[] = [];
    const first = produce.publish([{ topic: 'a', messages: ['a1'] }]).then(() => settled.push('first'));
    const second = produce
      .publish([
        { topic: 'a', messages: ['a2'] },
        { topic: 'b', messages: ['b1'] },
      ])
      .then(() => settled.push('second'));
    const third = produce.publish([{ topic: 'a', messages: ['a3'] }]).then(() => settled.push('third'));
    await flush();
    expect(requests.map((r) => r.batches)).toEqual([[{ topic: 'a', messages: ['a1'] }]]);

    requests[0].ack();
    await first;
    await flush();
    expect(settled).toEqual(['first']);
    expect(requests[1].batches).toEqual([
      { topic: 'a', messages: ['a2', 'a3'] },
      { topic: 'b', messages: ['b1'] },
    ]);

    requests[1].ack();
    await Promise.all([second, third]);
    expect(settled).toEqual(['first', 'second', 'third']);
    expect(requests).toHaveLength(2);
  });

  it('stops merging at the byte cap, and never splits one call', async () => {
    const { requests, send } = recordingSender();
    const produce = coalescer(send, 10);
    const calls = [
      produce.publish([{ topic: 't', messages: ['x'] }]),
      produce.publish([{ topic: 't', messages: ['123456'] }]),
      produce.publish([{ topic: 't', messages: ['1234'] }]),
      produce.publish([{ topic: 't', messages: ['1'] }]),
      produce.publish([{ topic: 't', messages: ['12345678901'] }]),
    ];
    for (let i = 0; i < 4; i++) {
      await flush();
      requests[i].ack();
    }
    await Promise.all(calls);
    expect(requests.map((r) => r.batches[0].messages)).toEqual([['x'], ['123456', '1234'], ['1'], ['12345678901']]);
  });

  it('fails every call of a failed request with its error, and goes on with the next ones', async () => {
    const { requests, send } = recordingSender();
    const produce = coalescer(send);
    const first = produce.publish([{ topic: 't', messages: ['1'] }]);
    const second = produce.publish([{ topic: 't', messages: ['2'] }]);
    const third = produce.publish([{ topic: 't', messages: ['3'] }]);
    await flush();
    requests[0].ack();
    await first;
    await flush();
    requests[1].fail(new Error('broker gone'));
    await expect(second).rejects.toThrow('broker gone');
    await expect(third).rejects.toThrow('broker gone');

    const fourth = produce.publish([{ topic: 't', messages: ['4'] }]);
    await flush();
    requests[2].ack();
    await expect(fourth).resolves.toBeUndefined();
  });

  it('times a call out while its request hangs, and withdraws calls still queued so they are never sent', async () => {
    const { requests, send } = recordingSender();
    const produce = coalescer(send, 1000, 50);
    const hanging = produce.publish([{ topic: 't', messages: ['sent'] }]);
    const queued = produce.publish([{ topic: 't', messages: ['withdrawn'] }]);
    await expect(hanging).rejects.toThrow(new Timeout('sent'));
    await expect(queued).rejects.toThrow(new Timeout('withdrawn'));

    requests[0].ack(); // the broker answers at last: the withdrawn call must not go out
    const later = produce.publish([{ topic: 't', messages: ['later'] }]);
    await flush();
    expect(requests.map((r) => r.batches[0].messages)).toEqual([['sent'], ['later']]);
    requests[1].ack();
    await expect(later).resolves.toBeUndefined();
  });

  it('resolves at once when there is nothing to send', async () => {
    const { requests, send } = recordingSender();
    await coalescer(send).publish([{ topic: 't', messages: [] }]);
    expect(requests).toHaveLength(0);
  });
});
