import { z } from 'zod';

// Validators of single environment variables. Each one names what it expects and echoes what it got,
// so a bad deployment fails at start with `NAME: expected …, got "…"` instead of a NaN deep inside.
// An empty value counts as unset: `.env` files often carry `NAME=` for "use the default".

const got = (raw: string) => `got ${JSON.stringify(raw)}`;
const unsetWhenEmpty = (raw: unknown) => (raw === '' ? undefined : raw);

function integerOf(raw: string, min: number, max: number): number | null {
  if (!/^-?\d+$/.test(raw.trim())) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

/** An integer within [min, max], as text (for the libraries' own builders) or undefined when unset. */
export function integerText(what: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .optional()
      .superRefine((raw, ctx) => {
        if (raw !== undefined && integerOf(raw, min, max) === null)
          ctx.addIssue({ code: 'custom', message: `expected ${what}, ${got(raw)}` });
      }),
  );
}

/** An integer within [min, max], the fallback when unset. */
export function integer(what: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return integerText(what, min, max).transform((raw) => (raw === undefined ? fallback : Number(raw)));
}

export const port = (fallback: number) => integer('an integer port 0–65535', fallback, 0, 65_535);
export const positiveIntegerText = (unit: string) => integerText(`a positive integer (${unit})`, 1);

/** One of a fixed set of words, the fallback when unset. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return fallback;
        if ((values as readonly string[]).includes(raw)) return raw as T[number];
        ctx.addIssue({ code: 'custom', message: `expected one of ${values.join(', ')}, ${got(raw)}` });
        return z.NEVER;
      }),
  );
}

/** Nest's level names (what LOG_LEVEL takes): the HTTP apps' logger and the Kafka client's both read it. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const isLogLevel = (raw: unknown): raw is LogLevel => (LOG_LEVELS as readonly unknown[]).includes(raw);

/** A URL with one of the given schemes, or undefined when unset. */
export function urlText(schemes: readonly string[]) {
  const what = `a ${schemes.join(' or ')} URL`;
  return z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .optional()
      .superRefine((raw, ctx) => {
        if (raw === undefined) return;
        const scheme = URL.canParse(raw) ? new URL(raw).protocol.replace(/:$/, '') : null;
        if (scheme === null || !schemes.includes(scheme))
          ctx.addIssue({ code: 'custom', message: `expected ${what}, ${got(redactUrl(raw))}` });
      }),
  );
}

/** Any text, undefined when unset (empty text is kept: for some variables it means "none"). */
export const text = () => z.string().optional();

/** Secrets are never echoed back, not even in a configuration error. */
export function secretText(minLength = 0) {
  return z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .optional()
      .superRefine((raw, ctx) => {
        if (raw !== undefined && raw.length < minLength)
          ctx.addIssue({ code: 'custom', message: `expected at least ${minLength} characters, got ${raw.length}` });
      }),
  );
}

function redactUrl(raw: string): string {
  if (!URL.canParse(raw)) return raw;
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}
