import { OffsetCommitter, PartitionOffset } from './offset-committer';

/** A commit function whose requests the test answers one by one. */
function recordingCommit() {
  const requests: { offsets: PartitionOffset[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const commit = (offsets: PartitionOffset[]) =>
    new Promise<void>((answer, fail) => {
      requests.push({ offsets, answer, fail });
    });
  return { requests, commit };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
/** Moves the fake clock on, then lets the requests it started reach the recorder. */
async function elapse(ms: number) {
  jest.advanceTimersByTime(ms);
  await settle();
}
const at = (topic: string, partition: number, offset: string): PartitionOffset => ({ topic, partition, offset });

describe('OffsetCommitter', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('sends nothing per batch: the latest offset of each partition leaves in one request per interval', async () => {
    const { requests, commit } = recordingCommit();
    const committer = new OffsetCommitter(commit, () => {}, 1000);
    committer.note(at('t', 0, '10'));
    committer.note(at('t', 1, '5'));
    committer.note(at('t', 0, '12'));
    await settle();
    expect(requests).toHaveLength(0);

    await elapse(999);
    expect(requests).toHaveLength(0);
    await elapse(1);
    expect(requests.map((r) => r.offsets)).toEqual([[at('t', 0, '12'), at('t', 1, '5')]]);
  });

  it('commits an idle consumer’s last offsets within one interval, and nothing once there is nothing new', async () => {
    const { requests, commit } = recordingCommit();
    const committer = new OffsetCommitter(commit, () => {}, 1000);
    committer.note(at('t', 0, '3'));
    await elapse(1000);
    requests[0].answer();
    await elapse(10_000);
    expect(requests).toHaveLength(1);
  });

  it('never lets a later request overtake an earlier one', async () => {
    const { requests, commit } = recordingCommit();
    const committer = new OffsetCommitter(commit, () => {}, 1000);
    committer.note(at('t', 0, '3'));
    await elapse(1000);
    committer.note(at('t', 0, '7'));
    await elapse(1000);
    expect(requests).toHaveLength(1); // the second waits for the first's answer
    requests[0].answer();
    await settle();
    expect(requests.map((r) => r.offsets)).toEqual([[at('t', 0, '3')], [at('t', 0, '7')]]);
  });

  it('flush sends at once and resolves when answered; a failed request is reported and the next one still goes', async () => {
    const { requests, commit } = recordingCommit();
    const errors: string[] = [];
    const committer = new OffsetCommitter(commit, (error) => errors.push(error.message), 1000);
    committer.note(at('t', 0, '3'));
    let flushed = false;
    const flushing = committer.flush().then(() => {
      flushed = true;
    });
    await settle();
    expect(requests).toHaveLength(1);
    expect(flushed).toBe(false);
    requests[0].fail(new Error('rebalancing'));
    await flushing;
    expect(errors).toEqual(['rebalancing']);

    committer.note(at('t', 0, '4'));
    const second = committer.flush();
    await settle();
    requests[1].answer();
    await second;
    expect(requests[1].offsets).toEqual([at('t', 0, '4')]);
    await elapse(5000); // the flushed note left no timer behind
    expect(requests).toHaveLength(2);
  });

  it('forgets partitions a rebalance took away, so their new owner’s progress is not set back', async () => {
    const { requests, commit } = recordingCommit();
    const committer = new OffsetCommitter(commit, () => {}, 1000);
    committer.note(at('a', 0, '3'));
    committer.note(at('a', 1, '4'));
    committer.note(at('b', 0, '5'));
    committer.retain({ a: [1] });
    await elapse(1000);
    expect(requests.map((r) => r.offsets)).toEqual([[at('a', 1, '4')]]);
  });
});
