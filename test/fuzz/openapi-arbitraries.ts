import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import {
  BOOLEANS,
  DATES,
  deepNesting,
  forgedCursor,
  longText,
  NUMBERS,
  RAW_BODIES,
  SEGMENTS,
  unicodeText,
  upper,
} from './adversarial-values';
import { mutate, mutation, serialize } from './json-mutations';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
}

export interface Operation {
  /** `GET /v1/sessions/{id}`: the (method, path) of the document. */
  key: string;
  method: string;
  template: string;
  spec: OperationObject;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, spec]) => ({
      key: `${method.toUpperCase()} ${template}`,
      method: method.toUpperCase(),
      template,
      spec,
    })),
  );
}

/** What the fuzzer knows of one API: credentials, ids of real resources, and routes' undocumented query names. */
export interface FuzzContext {
  /** Credentials that authenticate; sent most of the time, or nothing past the guard is explored. */
  validCredentials: Credential[];
  /** Credentials that verify but carry something unusual (an organization that does not exist, …). */
  oddCredentials?: Credential[];
  /** Missing, malformed, forged, expired or foreign credentials. */
  invalidCredentials: Credential[];
  /** Known values of a path or query parameter by name (ids of this org's resources, another org's, …). */
  known: (name: string) => string[];
}

/** The headers that carry a credential, and what they are (named in a counterexample). */
export interface Credential {
  label: string;
  headers: Record<string, string>;
}

export interface FuzzRequest {
  method: string;
  credential: string;
  /** Path and query, percent-encoded as sent. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The body is one well-formed JSON document sent as plain application/json. */
  wellFormedJson: boolean;
}

const ascii = (text: string) => text.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));

const idLike = (name: string) => /(^id$|_id$|Id$)/.test(name);

/** A path parameter: a real id most often, else its upper case, an unknown UUID, garbage, a long or unicode string. */
function pathValue(name: string, context: FuzzContext): fc.Arbitrary<string> {
  const known = context.known(name);
  const options: fc.WeightedArbitrary<string>[] = [
    { weight: 2, arbitrary: fc.constantFrom(...SEGMENTS) },
    { weight: 1, arbitrary: unicodeText().map(encodeURIComponent) },
    { weight: 1, arbitrary: longText },
  ];
  if (known.length > 0) {
    options.push({ weight: 6, arbitrary: fc.constantFrom(...known).map(encodeURIComponent) });
    options.push({ weight: 1, arbitrary: fc.constantFrom(...known).map((v) => encodeURIComponent(upper(v))) });
  }
  if (known.length === 0 || idLike(name)) options.push({ weight: 2, arbitrary: fc.uuid() });
  return fc.oneof(...options);
}

/** A query value chosen by what the parameter's name says it holds. */
function queryValue(name: string, schema: Schema | undefined, context: FuzzContext): fc.Arbitrary<string> {
  const known = context.known(name);
  const pools: fc.WeightedArbitrary<string>[] = [
    { weight: 1, arbitrary: fc.constantFrom(...SEGMENTS.map(decodeURIComponentSafe)) },
    { weight: 1, arbitrary: unicodeText() },
  ];
  const add = (weight: number, arbitrary: fc.Arbitrary<string>) => pools.push({ weight, arbitrary });
  if (known.length > 0) add(4, fc.constantFrom(...known));
  if (schema?.enum) {
    const values = schema.enum.map(String);
    add(4, fc.constantFrom(...values));
    add(1, fc.constantFrom(...values).map(upper));
  }
  if (/limit|page|risk|count|size|offset/.test(name)) add(6, fc.constantFrom(...NUMBERS));
  if (/since|time|date|_at$|from|until|before|after/.test(name))
    add(
      6,
      fc.oneof(
        fc.constantFrom(...DATES),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
    );
  if (name === 'cursor') add(8, forgedCursor);
  if (/only|^is_|^has_/.test(name)) add(4, fc.constantFrom(...BOOLEANS));
  if (idLike(name)) add(3, fc.oneof(fc.uuid(), fc.uuid().map(upper)));
  return fc.oneof(...pools);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function queryString(operation: Operation, context: FuzzContext): fc.Arbitrary<string> {
  const documented = (operation.spec.parameters ?? []).filter((p) => p.in === 'query');
  const names = documented.map((p) => p.name);
  const schemaOf = (name: string) => documented.find((p) => p.name === name)?.schema;
  const required = documented.filter((p) => p.required).map((p) => p.name);
  const pair = (name: string) => queryValue(name, schemaOf(name), context).map((value) => [name, value] as const);
  const pairs = fc
    .tuple(
      names.length > 0 ? fc.subarray(names, { maxLength: Math.min(3, names.length) }) : fc.constant([] as string[]),
      fc.boolean(),
      fc.option(fc.tuple(fc.constantFrom('limit', 'cursor', 'x', '__proto__', 'a[b]', ''), unicodeText(8))),
      fc.nat(3),
    )
    .chain(([chosen, repeat, extra, dropRequired]) => {
      // A required parameter is left out a quarter of the time.
      const wanted = [...new Set([...(dropRequired === 0 ? [] : required), ...chosen])];
      // A repeated parameter (?limit=1&limit=2) reaches a handler as an array where it expects a string.
      const all = repeat && wanted.length > 0 ? [...wanted, wanted[0]] : wanted;
      return fc.tuple(...all.map(pair)).map((list) => (extra ? [...list, extra] : list));
    });
  // Mostly percent-encoded; sometimes sent as is, so `%00`, `%zz` and `+` reach the query parser raw.
  return fc.tuple(pairs, fc.integer({ min: 0, max: 9 })).map(([list, mode]) => {
    const encode = mode === 0 ? ascii : encodeURIComponent;
    const text = list.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
    return text === '' ? '' : `?${text}`;
  });
}

/** A value of the JSON schema; uuids and other known values come from the context as often as not. */
export function schemaValue(schema: Schema, context: FuzzContext, property = ''): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  let value: fc.Arbitrary<unknown>;
  if (alternatives) value = fc.oneof(...alternatives.map((s) => schemaValue(s, context, property)));
  else if (schema.enum) value = fc.constantFrom(...schema.enum);
  else if (schema.type === 'object') {
    const properties = Object.entries(schema.properties ?? {});
    value = fc.record(Object.fromEntries(properties.map(([key, s]) => [key, schemaValue(s, context, key)])), {
      requiredKeys: schema.required ?? [],
    });
  } else if (schema.type === 'array')
    value = fc.array(schemaValue(schema.items ?? {}, context, property), {
      maxLength: Math.min(schema.maxItems ?? 4, 4),
    });
  else if (schema.type === 'string') value = stringValue(schema, context, property);
  else if (schema.type === 'integer')
    value = fc.integer({ min: schema.minimum ?? -1_000, max: Math.min(schema.maximum ?? 1_000, 1_000_000) });
  else if (schema.type === 'number') value = fc.double({ noNaN: true, noDefaultInfinity: true });
  else if (schema.type === 'boolean') value = fc.boolean();
  else value = fc.jsonValue({ maxDepth: 2 });
  return schema.nullable ? fc.option(value, { nil: null, freq: 6 }) : value;
}

function stringValue(schema: Schema, context: FuzzContext, property: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, 60);
  const known = context.known(property);
  let value: fc.Arbitrary<string>;
  if (schema.format === 'uuid') value = fc.uuid();
  else if (schema.format === 'date-time')
    value = fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  else if (schema.format === 'email' || /@/.test(schema.pattern ?? '')) value = fc.emailAddress();
  else if (schema.pattern)
    value = fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= Math.max(min, 1) && s.length <= max);
  else value = unicodeText(max).filter((s) => s.length >= min);
  return known.length > 0 ? fc.oneof(value, fc.constantFrom(...known)) : value;
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  '',
];
const ENCODINGS = ['br', 'deflate', 'gzip, identity', 'identity', 'GZIP'];

/** A request of the operation: path, query, credential, headers and body, each adversarial some of the time. */
export function requestOf(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const params = (operation.template.match(/\{[^}]+\}/g) ?? []).map((p) => p.slice(1, -1));
  const path = fc
    .tuple(...params.map((name) => pathValue(name, context)))
    .map((values) => params.reduce((p, name, i) => p.replace(`{${name}}`, values[i]), operation.template));
  // Cross-shrinking moves a counterexample to the first (plain) alternative wherever that still fails.
  const plain = { withCrossShrink: true };
  const credential = fc.oneof(
    plain,
    { weight: 8, arbitrary: fc.constantFrom(...context.validCredentials) },
    { weight: 2, arbitrary: fc.constantFrom(...context.invalidCredentials) },
    ...(context.oddCredentials?.length ? [{ weight: 1, arbitrary: fc.constantFrom(...context.oddCredentials) }] : []),
  );
  const schema = operation.spec.requestBody?.content['application/json']?.schema;
  const shaped = schema
    ? fc
        .tuple(schemaValue(schema, context), fc.array(mutation, { maxLength: 3 }), fc.nat(4))
        .map(([value, mutations, clean]) => serialize(clean === 0 ? value : mutate(value, mutations)))
        .map((text) => ({ text: text as string | Buffer | undefined, json: true }))
    : fc.constant({ text: undefined, json: false });
  const none = fc.constant({ text: undefined, json: false });
  const raw = fc.oneof(fc.constantFrom(...RAW_BODIES), deepNesting).map((text) => ({ text, json: false }));
  const body = schema
    ? fc.oneof(plain, { weight: 12, arbitrary: shaped }, { weight: 1, arbitrary: none }, { weight: 2, arbitrary: raw })
    : fc.oneof(plain, { weight: 6, arbitrary: none }, { weight: 2, arbitrary: raw });
  const envelope = fc.record({
    contentType: fc.oneof(
      plain,
      { weight: 12, arbitrary: fc.constant('application/json') },
      fc.constantFrom(...CONTENT_TYPES),
    ),
    encoding: fc.oneof(
      plain,
      { weight: 10, arbitrary: fc.constant('none') },
      { weight: 1, arbitrary: fc.constant('gzip') },
      { weight: 1, arbitrary: fc.constant('gzip-garbage') },
      { weight: 1, arbitrary: fc.constantFrom(...ENCODINGS) },
    ),
  });
  return fc
    .tuple(path, queryString(operation, context), credential, body, envelope)
    .map(([p, query, credential, { text, json }, { contentType, encoding }]) => {
      const request: FuzzRequest = {
        method: operation.method,
        credential: credential.label,
        path: p + query,
        headers: { ...credential.headers },
        wellFormedJson: false,
      };
      if (text === undefined) return request;
      let bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
      if (contentType !== '') request.headers['content-type'] = contentType;
      if (encoding === 'gzip') bytes = gzipSync(bytes);
      if (encoding === 'gzip-garbage') bytes = Buffer.concat([Buffer.from([0x1f, 0x8b]), bytes]);
      if (encoding !== 'none') request.headers['content-encoding'] = encoding.replace('-garbage', '');
      request.body = bytes;
      request.wellFormedJson = json && contentType === 'application/json' && encoding === 'none';
      return request;
    });
}
