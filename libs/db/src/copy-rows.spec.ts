import { copyText } from './copy-rows';

describe('copyText: one field of COPY text format', () => {
  it('writes null and undefined as \\N', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(undefined)).toBe('\\N');
  });

  it('escapes the backslash, the delimiter and line ends, and keeps everything else', () => {
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText('ünïcode 🚀 "quoted" ,;')).toBe('ünïcode 🚀 "quoted" ,;');
    expect(copyText('')).toBe('');
  });

  it('writes numbers and booleans as Postgres reads them', () => {
    expect(copyText(42)).toBe('42');
    expect(copyText(false)).toBe('false');
  });
});
