/// <reference types="jest" />
import { csvField, csvHeader, csvLine, exportFileName, ndjsonLine } from './csv';

describe('csvField', () => {
  it('leaves plain text and numbers alone', () => {
    expect(csvField('git')).toBe('git');
    expect(csvField(42)).toBe('42');
    expect(csvField(true)).toBe('true');
  });

  it('writes null and undefined as empty fields', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it('writes arrays as JSON, quoted', () => {
    expect(csvField(['-rf', '/tmp'])).toBe('"[""-rf"",""/tmp""]"');
  });

  it('never lets a spreadsheet run a value as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-rf')).toBe("'-rf");
    expect(csvField('@sum')).toBe("'@sum");
  });
});

describe('csv lines', () => {
  const columns = [
    { header: 'id', value: (row: { id: string; n: number | null }) => row.id },
    { header: 'n', value: (row: { id: string; n: number | null }) => row.n },
  ];

  it('ends every line with CRLF', () => {
    expect(csvHeader(columns)).toBe('id,n\r\n');
    expect(csvLine(columns, { id: 'a', n: null })).toBe('a,\r\n');
    expect(csvLine(columns, { id: 'b,c', n: 3 })).toBe('"b,c",3\r\n');
  });
});

describe('ndjsonLine', () => {
  it('is one JSON document and a newline', () => {
    expect(ndjsonLine({ a: 'x\ny' })).toBe('{"a":"x\\ny"}\n');
  });
});

describe('exportFileName', () => {
  it('names the file after the kind and the ISO time, without colons', () => {
    expect(exportFileName('events', 'csv', new Date('2024-05-01T10:00:00.000Z'))).toBe(
      'events-2024-05-01T10-00-00.000Z.csv',
    );
    expect(exportFileName('events', 'ndjson', new Date('2024-05-01T10:00:00.000Z'))).toBe(
      'events-2024-05-01T10-00-00.000Z.ndjson',
    );
  });
});
