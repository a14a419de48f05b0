/**
 * Action patterns are `domain:scope:verb`. `*` matches any run of characters, `/` and `:` included,
 * so `file:*:delete` covers every path and `*` alone as a segment covers the whole segment.
 * Pattern shape errors are reported at policy save time, so matching never sees a malformed one.
 */
export function patternShapeError(pattern: string): string | null {
  if (pattern.trim() !== pattern || pattern === '') return 'must be a non-empty string without surrounding spaces';
  const segments = splitSegments(pattern);
  if (segments.length !== 3 || segments.some((s) => s === '')) {
    return 'must have three non-empty colon-separated segments: domain:scope:verb';
  }
  return null;
}

/**
 * The scope of a file action is a path and may contain `:` itself, so a pattern (and an action)
 * splits at its first and last colon: domain, everything between, verb.
 */
export function splitSegments(text: string): string[] {
  const first = text.indexOf(':');
  const last = text.lastIndexOf(':');
  if (first < 0 || first === last) return [text];
  return [text.slice(0, first), text.slice(first + 1, last), text.slice(last + 1)];
}

const cache = new Map<string, RegExp>();

function compile(glob: string): RegExp {
  let compiled = cache.get(glob);
  if (!compiled) {
    const body = glob
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    compiled = new RegExp(`^${body}$`, 'si');
    if (cache.size > 10_000) cache.clear();
    cache.set(glob, compiled);
  }
  return compiled;
}

/** Segment-wise glob match, case-insensitive (hosts and tools are; paths on the daemons' systems mostly are not, but a miss is worse than a false hit here). */
export function matchesPattern(pattern: string, action: string): boolean {
  const p = splitSegments(pattern);
  const a = splitSegments(action);
  if (p.length !== 3 || a.length !== 3) return false;
  return p.every((segment, i) => compile(segment).test(a[i]));
}
