// patches/kafkajs+2.2.4.patch rewrites kafkajs's record encoder, record and header decoding, batch checksum
// and the producer's grouping of messages per partition for speed. The bytes on the wire must stay exactly those of
// the unpatched release: the expected batch below was encoded by unpatched kafkajs 2.2.4 from the same records.
/* eslint-disable @typescript-eslint/no-require-imports */
import fs from 'node:fs';

interface RecordInput {
  offsetDelta: number;
  timestampDelta: number;
  key: string | Buffer | null;
  value: string | Buffer | null;
  headers: Record<string, string | string[] | Buffer>;
}
interface Encoded {
  buffer: Buffer;
}
interface DecodedRecord {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
  timestamp: string;
  headers: Record<string, string | Buffer | (string | Buffer)[]>;
}

// kafkajs's protocol modules are internal: resolved from the installed package, as the client uses them.
const kafkajsRoot = require.resolve('kafkajs').replace(/index\.js$/, '');
const Record: (r: RecordInput) => Encoded = require(`${kafkajsRoot}src/protocol/recordBatch/record/v0`);
const { RecordBatch } = require(`${kafkajsRoot}src/protocol/recordBatch/v0`) as {
  RecordBatch: (b: {
    firstOffset?: string;
    // A message's own timestamp is a string of milliseconds, as kafkajs takes it.
    firstTimestamp: number | string;
    maxTimestamp: number | string;
    producerId?: unknown;
    producerEpoch?: number;
    firstSequence?: number;
    transactional?: boolean;
    lastOffsetDelta?: number;
    records: Encoded[];
  }) => Promise<Encoded & { size: () => number }>;
};
const murmur2: (key: string | Buffer) => number = require(`${kafkajsRoot}src/producer/partitioners/default/murmur2`);
const { DefaultPartitioner } = require(`${kafkajsRoot}src/producer/partitioners`) as {
  DefaultPartitioner: () => (args: {
    topic: string;
    partitionMetadata: { partitionId: number; leader: number }[];
    message: { key?: string | null; partition?: number | null };
  }) => number;
};
interface Message {
  key?: string | null;
  partition?: number | null;
}
type Partitioner = (args: {
  topic: string;
  partitionMetadata: { partitionId: number; leader: number }[];
  message: Message;
}) => number;
const groupMessagesPerPartition: (args: {
  topic: string;
  partitionMetadata: { partitionId: number; leader: number }[];
  messages: Message[];
  partitioner: Partitioner;
}) => Record<string, Message[]> = require(`${kafkajsRoot}src/producer/groupMessagesPerPartition`);
const crc32C: ((buffer: Buffer) => number) & { implementation: string } = require(
  `${kafkajsRoot}src/protocol/recordBatch/crc32C`,
);
const javascriptCrc32C: (buffer: Buffer) => number = require(`${kafkajsRoot}src/protocol/recordBatch/crc32C/crc32C`);
const Decoder: new (buffer: Buffer) => { readVarInt: () => number; offset: number } = require(
  `${kafkajsRoot}src/protocol/decoder`,
);
const decodeBatch: (d: unknown) => Promise<{ records: DecodedRecord[] }> = require(
  `${kafkajsRoot}src/protocol/recordBatch/v0/decoder`,
);

const records: RecordInput[] = [
  {
    offsetDelta: 0,
    timestampDelta: 0,
    key: 'session-1',
    value: '{"n":1}',
    headers: { ce_id: 'a', 'content-type': 'application/json' },
  },
  { offsetDelta: 300, timestampDelta: 123456, key: null, value: Buffer.from('é'.repeat(40)), headers: {} },
  {
    offsetDelta: 70000,
    timestampDelta: -5,
    key: Buffer.alloc(0),
    value: null,
    headers: { multi: ['x', 'yé'], big: 'z'.repeat(70) },
  },
];

const UNPATCHED_BATCH =
  '0000000000000000000001320000000002cd0090710000000000000000018bcfe568000000018bcfe56805ffffffffffffffff000000000000' +
  '00000003780000001273657373696f6e2d310e7b226e223a317d040a63655f6964026118636f6e74656e742d74797065206170706c69636174' +
  '696f6e2f6a736f6eb4010080890fd80401a001' +
  'c3a9'.repeat(40) +
  '00cc010009e0c5080001060a6d756c746902780a6d756c74690679c3a9066269678c01' +
  '7a'.repeat(70);

interface ProduceMessage {
  key: string | Buffer | null;
  value: string | Buffer | null;
  timestamp?: string;
  headers: Record<string, string | string[] | Buffer>;
}
interface TopicData {
  topic: string;
  partitions: { partition: number; firstSequence: number; messages: ProduceMessage[] }[];
}
const Long: { fromInt: (n: number) => unknown } = require(`${kafkajsRoot}src/utils/long`);
const Encoder: new () => Encoded & {
  writeInt16: (n: number) => unknown;
  writeInt32: (n: number) => unknown;
  writeString: (s: string | null) => unknown;
  writeArray: (items: Encoded[]) => unknown;
  writeEncoder: (e: Encoded) => unknown;
  writeVarInt: (n: number) => unknown;
  writeBuffer: (b: Buffer) => unknown;
  size: () => number;
} = require(`${kafkajsRoot}src/protocol/encoder`);
const produceRequest: (r: {
  acks: number;
  timeout: number;
  transactionalId: string | null;
  producerId: unknown;
  producerEpoch: number;
  topicData: TopicData[];
}) => { apiKey: number; apiVersion: number; encode: () => Promise<Encoded> } = require(
  `${kafkajsRoot}src/protocol/requests/produce/v3/request`,
);
const encodeRequest: (r: { correlationId: number; clientId: string; request: unknown }) => Promise<Encoded> = require(
  `${kafkajsRoot}src/protocol/request`,
);

// A produce request as the broker receives it (size, header, payload), covering null, byte and
// non-ASCII keys and values, a repeated header, a header past the short-string path, an empty
// partition, a message with its own timestamp and two topics; Date.now is 1,700,000,000,000.
const produceTopicData: TopicData[] = [
  {
    topic: 'ingest.events.v1',
    partitions: [
      {
        partition: 2,
        firstSequence: 17,
        messages: [
          { key: 'session-1', value: '{"n":1}', headers: { ce_id: 'a', 'content-type': 'application/json' } },
          {
            key: null,
            value: Buffer.from('é'.repeat(3)),
            headers: { clé: 'vé', multi: ['x', ''], big: 'z'.repeat(70) },
          },
          { key: Buffer.from('k'), value: null, timestamp: '1700000000500', headers: { b: Buffer.from('bytes') } },
        ],
      },
      { partition: 5, firstSequence: 0, messages: [] },
    ],
  },
  {
    topic: 'tøpic',
    partitions: [{ partition: 0, firstSequence: 3, messages: [{ key: 'clé', value: 'ü', headers: {} }] }],
  },
];
const UNPATCHED_PRODUCE_REQUEST =
  '000001df000000030000002a000a6167656e747761746368ffffffff00007530000000020010696e676573742e6576656e74732e76310000' +
  '000200000002000000fe0000000000000000000000f200000000022a2e9ec30000000000020000018bcfe569f40000018bcfe569f4000000' +
  '000000004d000300000011000000037a00e707001273657373696f6e2d310e7b226e223a317d040a63655f6964026118636f6e74656e742d' +
  '74797065206170706c69636174696f6e2f6a736f6ee20100e70702010cc3a9c3a9c3a90808636cc3a90676c3a90a6d756c746902780a6d75' +
  '6c746900066269678c017a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a' +
  '7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a1e000004026b010202620a6279746573000000050000003d0000000000000000' +
  '000000310000000002d2a467720000ffffffff0000018bcfe568000000018bcfe56800000000000000004d00030000000000000000000674' +
  'c3b870696300000001000000000000004a00000000000000000000003e00000000026c0c5b400000000000000000018bcfe568000000018b' +
  'cfe56800000000000000004d000300000003000000011800000008636cc3a904c3bc00';

const encodeProduceRequest = (topicData: TopicData[], transactionalId: string | null = null) =>
  encodeRequest({
    correlationId: 42,
    clientId: 'agentwatch',
    request: produceRequest({
      acks: -1,
      timeout: 30000,
      transactionalId,
      producerId: Long.fromInt(77),
      producerEpoch: 3,
      topicData,
    }),
  });

const encodeBatch = () =>
  RecordBatch({ firstTimestamp: 1_700_000_000_000, maxTimestamp: 1_700_000_000_005, records: records.map(Record) });

describe('the kafkajs patch', () => {
  it('is applied to the installed kafkajs (npm install runs patch-package)', () => {
    const source = fs.readFileSync(`${kafkajsRoot}src/protocol/encoder.js`, 'utf8');
    expect(source).toContain('Buffer.allocUnsafe');
    const decoder = fs.readFileSync(`${kafkajsRoot}src/protocol/decoder.js`, 'utf8');
    expect(decoder).toContain("this.buffer.toString('utf8', this.offset, this.offset + byteLength)");
    expect(murmur2.toString()).toContain('Math.imul');
    expect(groupMessagesPerPartition.toString()).toContain('current.push(message)');
    const produce = fs.readFileSync(`${kafkajsRoot}src/protocol/requests/produce/v3/request.js`, 'utf8');
    expect(produce).toContain('encodeInPlace');
  });

  it('encodes a produce request, its records written in place, to the same bytes as unpatched kafkajs 2.2.4', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      expect((await encodeProduceRequest(produceTopicData)).buffer.toString('hex')).toBe(UNPATCHED_PRODUCE_REQUEST);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('writes many varied records in place exactly as records encoded one by one and batched', async () => {
    // Strings around the short-string cut-off (64), ASCII and not, at every position of a record.
    const text = (i: number) => (i % 5 === 0 ? 'é' : 'a').repeat(i % 130) + (i % 7 === 0 ? 'ü' : '');
    const messages = (n: number, seed: number): ProduceMessage[] =>
      Array.from({ length: n }, (_, k) => {
        const i = k + seed;
        return {
          key: i % 11 === 0 ? null : text(i),
          value: i % 13 === 0 ? null : i % 3 === 0 ? Buffer.from(text(i * 5)) : text(i * 5),
          timestamp: i % 17 === 0 ? String(1_700_000_000_000 + i * 1_000_000) : undefined,
          headers: { [text(i + 1) || 'h']: text(i * 3), org_id: ['0190a3f2-7c1e-7b7a-9d4e-1f2a3b4c5d6e', text(i)] },
        };
      });
    const topicData: TopicData[] = [
      {
        topic: 't',
        partitions: [0, 1, 2].map((p) => ({ partition: p, firstSequence: p * 7, messages: messages(150, p * 1000) })),
      },
    ];
    // The request as unpatched kafkajs's produce/v3 composes it: a buffer per record, batch, partition and topic.
    const oneByOne = async (transactionalId: string | null) => {
      const partitions = await Promise.all(
        topicData[0].partitions.map(async ({ partition, firstSequence, messages: batch }) => {
          const stamps = batch
            .map((m) => m.timestamp)
            .filter((t): t is string => t != null)
            .sort();
          const first = stamps[0] ?? 1_700_000_000_000;
          const recordBatch = await RecordBatch({
            firstTimestamp: first,
            maxTimestamp: stamps[stamps.length - 1] ?? 1_700_000_000_000,
            producerId: Long.fromInt(77),
            producerEpoch: 3,
            firstSequence,
            transactional: !!transactionalId,
            lastOffsetDelta: batch.length - 1,
            records: batch.map((m, i) =>
              Record({
                key: m.key,
                value: m.value,
                headers: m.headers,
                offsetDelta: i,
                timestampDelta: Number(m.timestamp ?? 1_700_000_000_000) - Number(first),
              }),
            ),
          });
          // And each record reads back as its message: the bytes of its text, whatever path wrote them.
          const { records: decoded } = await decodeBatch(new Decoder(recordBatch.buffer));
          const bytes = (v: string | Buffer | null) => (v === null ? null : Buffer.from(v).toString('hex'));
          expect(decoded.map((r) => [bytes(r.key), bytes(r.value), Object.keys(r.headers)])).toEqual(
            batch.map((m) => [bytes(m.key), bytes(m.value), Object.keys(m.headers)]),
          );
          expect(decoded.map((r) => Object.values(r.headers).flat().map(bytes))).toEqual(
            batch.map((m) => Object.values(m.headers).flat().map(bytes)),
          );
          const encoded = new Encoder();
          encoded.writeInt32(partition);
          encoded.writeInt32(recordBatch.size());
          encoded.writeEncoder(recordBatch);
          return encoded;
        }),
      );
      const topic = new Encoder();
      topic.writeString('t');
      topic.writeArray(partitions);
      const payload = new Encoder();
      payload.writeString(transactionalId);
      payload.writeInt16(-1);
      payload.writeInt32(30000);
      payload.writeArray([topic]);
      const framed = new Encoder();
      framed.writeInt32(2 + 2 + 4 + 2 + 'agentwatch'.length + payload.size());
      framed.writeInt16(0); // Produce
      framed.writeInt16(3);
      framed.writeInt32(42);
      framed.writeString('agentwatch');
      framed.writeEncoder(payload);
      return framed.buffer.toString('hex');
    };
    jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      for (const transactionalId of [null, 'tx-1']) {
        expect((await encodeProduceRequest(topicData, transactionalId)).buffer.toString('hex')).toBe(
          await oneByOne(transactionalId),
        );
      }
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('encodes records and their batch to the same bytes as unpatched kafkajs 2.2.4', async () => {
    expect((await encodeBatch()).buffer.toString('hex')).toBe(UNPATCHED_BATCH);
  });

  it('writes a header value given as bytes exactly as the same value given as text', () => {
    const asText = { ...records[0], headers: { ce_id: 'é-1', multi: ['x', 'y'] } };
    const asBytes = { ...records[0], headers: { ce_id: Buffer.from('é-1'), multi: ['x', 'y'] } };
    expect(Record(asBytes).buffer.toString('hex')).toBe(Record(asText).buffer.toString('hex'));
  });

  it('decodes what it encodes, repeated header keys collected and __proto__ kept as a plain header', async () => {
    const withProto = { ...records[0], headers: { ['__proto__']: 'p', toString: 't', ce_id: 'a', clé: 'v' } };
    const batch = await RecordBatch({
      firstTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_005,
      records: [...records, withProto].map(Record),
    });
    const { records: decoded } = await decodeBatch(new Decoder(batch.buffer));

    expect(decoded.map((r) => [r.offset, r.timestamp])).toEqual([
      ['0', '1700000000000'],
      ['300', '1700000123456'],
      ['70000', '1699999999995'],
      ['0', '1700000000000'],
    ]);
    expect(decoded[0].key?.toString()).toBe('session-1');
    expect(decoded[1].value?.toString()).toBe('é'.repeat(40));
    expect(decoded[2].value).toBeNull();
    expect(decoded[2].headers.multi).toEqual(['x', Buffer.from('yé')]);
    expect(Object.keys(decoded[3].headers)).toEqual(['__proto__', 'toString', 'ce_id', 'clé']);
    expect(Object.getPrototypeOf(decoded[3].headers)).toBe(Object.prototype);
    expect(decoded[3].headers.toString.toString()).toBe('t');
  });

  it('decodes a header value that is all ASCII as text and any other as its bytes, which encode back unchanged', async () => {
    const headers = {
      ce_type: 'agentwatch.ingest.event.v1',
      empty: '',
      control: Buffer.from([0x00, 0x1f, 0x7f]),
      accented: 'clé',
      binary: Buffer.from([0xff, 0x00, 0x80, 0xc3]),
    };
    const sent = { ...records[0], headers };
    const batch = await RecordBatch({
      firstTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_000,
      records: [Record(sent)],
    });
    const [decoded] = (await decodeBatch(new Decoder(batch.buffer))).records;

    expect(decoded.headers).toEqual({
      ce_type: 'agentwatch.ingest.event.v1',
      empty: '',
      control: '\u0000\u001f\u007f',
      accented: Buffer.from('clé'),
      binary: Buffer.from([0xff, 0x00, 0x80, 0xc3]),
    });
    // A dead letter or a redrive sends the headers on as they were decoded: the same bytes.
    expect(Record({ ...sent, headers: decoded.headers as RecordInput['headers'] }).buffer.toString('hex')).toBe(
      Record(sent).buffer.toString('hex'),
    );
  });

  it("reads each record up to its length, and each record's header names as that record spells them", async () => {
    // Names of one length that differ in one byte, at the same position in consecutive records.
    const spelled: Record<string, string>[] = [
      { abc: '1', ce_id: 'x' },
      { abd: '2', ce_id: 'y' },
      { ce_id: 'z', abc: '3' },
      { abc: '4', ce_id: 'w' },
    ];
    const [first, ...rest] = spelled.map((headers) => Record({ ...records[0], headers }));
    // The first record with two bytes after its headers, as a later version of the format may add.
    const reader = new Decoder(first.buffer);
    reader.readVarInt(); // its length
    const body = first.buffer.subarray(reader.offset);
    const longer = new Encoder();
    longer.writeVarInt(body.length + 2);
    longer.writeBuffer(Buffer.concat([body, Buffer.from([1, 2])]));
    const batch = await RecordBatch({
      firstTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_000,
      records: [longer, ...rest],
    });
    const { records: decoded } = await decodeBatch(new Decoder(batch.buffer));

    expect(decoded.map((r) => r.headers)).toEqual(spelled);
    expect(decoded.map((r) => Object.keys(r.headers))).toEqual(spelled.map((h) => Object.keys(h)));
    expect(decoded.map((r) => r.value?.toString())).toEqual(spelled.map(() => '{"n":1}'));

    const nullRecord = new Encoder();
    nullRecord.writeVarInt(-1);
    const damaged = await RecordBatch({
      firstTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_000,
      records: [nullRecord],
    });
    await expect(decodeBatch(new Decoder(damaged.buffer))).rejects.toThrow('a record of length -1');
  });

  // The partition of a key must stay the one Java clients (and unpatched kafkajs) choose: the first six
  // are the cases of Kafka's own UtilsTest, the others were computed by unpatched kafkajs 2.2.4.
  it('hashes keys exactly as the Java client and unpatched kafkajs do', () => {
    const expected: [string | Buffer, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      [Buffer.from('abc'), 479470107],
      ['', 275646681],
      ['a', -1563381124],
      ['ab', 316155434],
      ['0190a3f2-7c1e-7b7a-9d4e-1f2a3b4c5d6e', 1713812890],
      ['ünïcødé-ключ', -1534091484],
      ['\u{1F600}x', -1018136956],
    ];
    expect(expected.map(([key]) => murmur2(key))).toEqual(expected.map(([, hash]) => hash));
  });

  it('partitions by key hash, and without a key only over partitions that have a leader', () => {
    const partitionMetadata = [0, 1, 2].map((partitionId) => ({ partitionId, leader: partitionId === 1 ? -1 : 0 }));
    const partition = DefaultPartitioner();
    const of = (message: { key?: string | null; partition?: number | null }) =>
      partition({ topic: 't', partitionMetadata, message });
    expect(of({ key: 'foobar' })).toBe((-790332482 & 0x7fffffff) % 3);
    expect(of({ key: 'foobar', partition: 1 })).toBe(1);
    const keyless = Array.from({ length: 12 }, () => of({ key: null }));
    expect(new Set(keyless)).toEqual(new Set([0, 2]));
  });

  it('groups messages per partition as unpatched kafkajs does, in their order, in linear time', () => {
    const partitionMetadata = [0, 1, 2, 3].map((partitionId) => ({ partitionId, leader: 0 }));
    const partitioner = DefaultPartitioner();
    // groupMessagesPerPartition of unpatched kafkajs 2.2.4, verbatim but for the types.
    const unpatched = (messages: Message[]) =>
      messages.reduce<Record<string, Message[]>>((result, message) => {
        const partition = partitioner({ topic: 't', partitionMetadata, message });
        const current = result[partition] || [];
        return Object.assign(result, { [partition]: [...current, message] });
      }, {});
    const messages: Message[] = Array.from({ length: 500 }, (_, i) =>
      i % 7 === 0 ? { key: null, partition: i % 4 } : { key: `session-${i % 37}` },
    );
    const grouped = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    expect(grouped).toEqual(unpatched(messages));
    expect(Object.keys(grouped)).toEqual(['0', '1', '2', '3']);
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual({});

    // 200,000 messages for one partition: unpatched, about 2 * 10^10 element copies.
    const many = Array.from({ length: 200_000 }, () => ({ key: 'one' }));
    const started = performance.now();
    const one = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages: many, partitioner });
    expect(Object.values(one).map((m) => m.length)).toEqual([200_000]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('keeps offsets and timestamps exact beyond 2^53 and for deltas longer than four varint bytes', async () => {
    const far = { ...records[0], offsetDelta: 8, timestampDelta: 2 ** 40 + 3 };
    const batch = await RecordBatch({
      firstOffset: '9007199254740993',
      firstTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_005,
      records: [far].map(Record),
    });
    const { records: decoded } = await decodeBatch(new Decoder(batch.buffer));

    expect(decoded[0].offset).toBe((9007199254740993n + 8n).toString());
    expect(decoded[0].timestamp).toBe((1_700_000_000_000n + 2n ** 40n + 3n).toString());
  });

  it("checksums batches with the native CRC-32C, equal to kafkajs's own loop on views at any offset", () => {
    expect(crc32C.implementation).toBe('native');
    // The check value of CRC-32C (Castagnoli) for the ASCII digits 1-9.
    expect(crc32C(Buffer.from('123456789'))).toBe(0xe3069283);
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 131 + (i >> 7)) & 0xff));
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [3, 4_099],
      [17, 70_000],
      [65_535, 69_999],
    ]) {
      const view = bytes.subarray(start, end);
      expect(crc32C(view)).toBe(javascriptCrc32C(view) >>> 0);
    }
  });
});
