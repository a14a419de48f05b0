import { randomBytes } from 'node:crypto';
import { openValue, sealingKeyOf, sealValue, UnreadableSealedValue } from './sealed-value';

const ORG = '0b5b8c62-4a1c-4f55-9d53-3f1a0f0f9c01';
const OTHER_ORG = '7d0e2b1a-9c3f-4e8d-b6a5-2f1e0d9c8b7a';
const PLAIN = JSON.stringify({ tool_name: 'cat', arguments: ['/etc/shadow'], note: 'ünïcode ✓' });

describe('sealed values (AES-256-GCM)', () => {
  const bytes = randomBytes(32);
  const key = sealingKeyOf(bytes, ORG);

  it('opens what it sealed, and the sealed text shows nothing of the plain value', () => {
    const sealed = sealValue(key, PLAIN);
    expect(sealed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('shadow');
    expect(Buffer.from(sealed, 'base64').toString('latin1')).not.toContain('shadow');
    expect(openValue(key, sealed)).toBe(PLAIN);
  });

  it('uses a fresh IV each time: the same value seals differently', () => {
    expect(sealValue(key, PLAIN)).not.toBe(sealValue(key, PLAIN));
  });

  it('never repeats an IV across many values (more than one drawn pool of them), and each opens', () => {
    const sealed = Array.from({ length: 1000 }, (_, i) => sealValue(key, `${PLAIN} ${i}`));
    const ivs = new Set(sealed.map((s) => Buffer.from(s, 'base64').subarray(0, 12).toString('hex')));
    expect(ivs.size).toBe(1000);
    expect(sealed.map((s) => openValue(key, s))).toEqual(sealed.map((_, i) => `${PLAIN} ${i}`));
  });

  it('refuses another key, another organization and altered bytes', () => {
    const sealed = sealValue(key, PLAIN);
    expect(() => openValue(sealingKeyOf(randomBytes(32), ORG), sealed)).toThrow(UnreadableSealedValue);
    expect(() => openValue(sealingKeyOf(bytes, OTHER_ORG), sealed)).toThrow(UnreadableSealedValue);
    const altered = Buffer.from(sealed, 'base64');
    altered[altered.length - 1] ^= 1;
    expect(() => openValue(key, altered.toString('base64'))).toThrow(UnreadableSealedValue);
    expect(() => openValue(key, 'c2hvcnQ=')).toThrow(UnreadableSealedValue);
  });

  it('takes only a 256-bit key', () => {
    expect(() => sealingKeyOf(randomBytes(16), ORG)).toThrow(/32 bytes/);
  });

  it('keeps the key it was made from: the buffer changed afterwards changes nothing', () => {
    const copy = Buffer.from(bytes);
    const prepared = sealingKeyOf(copy, ORG);
    copy.fill(0);
    expect(openValue(key, sealValue(prepared, PLAIN))).toBe(PLAIN);
  });
});
