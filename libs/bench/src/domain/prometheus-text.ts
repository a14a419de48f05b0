/** One sample line of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' };

/** The samples of a /metrics answer (format 0.0.4); comments, blank lines and timestamps are dropped. */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const name = NAME.exec(line)?.[1];
    if (!name) throw new Error(`not a sample line: ${line}`);
    let at = name.length;
    const labels: Record<string, string> = {};
    if (line[at] === '{') at = readLabels(line, at + 1, labels);
    const [value] = line.slice(at).trim().split(/\s+/);
    samples.push({ name, labels, value: Number(value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : value) });
  }
  return samples;
}

/** Reads `name="value",…}` from `at`; returns the position after the closing brace. */
function readLabels(line: string, at: number, into: Record<string, string>): number {
  let i = at;
  while (line[i] !== '}') {
    if (line[i] === ',' || line[i] === ' ') {
      i++;
      continue;
    }
    const eq = line.indexOf('=', i);
    const label = line.slice(i, eq).trim();
    if (line[eq + 1] !== '"') throw new Error(`unquoted value of label ${label}: ${line}`);
    let value = '';
    for (i = eq + 2; line[i] !== '"'; i++) {
      if (i >= line.length) throw new Error(`unterminated value of label ${label}: ${line}`);
      value += line[i] === '\\' ? (ESCAPES[line[++i]] ?? line[i]) : line[i];
    }
    into[label] = value;
    i++;
  }
  return i + 1;
}
