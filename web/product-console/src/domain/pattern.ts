/**
 * The scoring API's shape rule for action patterns and blocked actions (its own patternShapeError),
 * mirrored so the editor can say at once what the server would refuse: `domain:scope:verb`, split at
 * the first and the last colon (a path scope may hold colons itself), three non-empty segments; `*`
 * matches any run of characters, so `*` alone is a whole segment.
 */
export function patternShapeError(pattern: string): string | null {
  if (pattern.trim() !== pattern || pattern === '') return 'must be a non-empty string without surrounding spaces';
  const segments = splitSegments(pattern);
  if (segments.length !== 3 || segments.some((s) => s === '')) {
    return 'must have three non-empty colon-separated segments: domain:scope:verb';
  }
  return null;
}

function splitSegments(text: string): string[] {
  const first = text.indexOf(':');
  const last = text.lastIndexOf(':');
  if (first < 0 || first === last) return [text];
  return [text.slice(0, first), text.slice(first + 1, last), text.slice(last + 1)];
}

/** Every entry of a pattern list the server would refuse, with why: `"file:x": must have …`. */
export function patternListErrors(patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => {
    const error = patternShapeError(pattern);
    return error ? [`"${pattern}" ${error}`] : [];
  });
}
