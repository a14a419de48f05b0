import fc from 'fast-check';
import { adversarialJson } from './adversarial-values';

/** Mutations of a schema-shaped JSON body: a wrong value, a dropped or extra key, a deep nest. */
type Json = unknown;
interface Mutation {
  kind: 'replace' | 'drop' | 'add' | 'nest';
  at: number;
  key: string;
  value: Json;
  depth: number;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('replace', 'replace', 'drop', 'add', 'nest'),
  at: fc.nat(),
  key: fc.constantFrom('extra', '__proto__', 'constructor', 'org_id', 'id', ''),
  value: adversarialJson,
  depth: fc.integer({ min: 2, max: 5_000 }),
});

type Parent = Record<string, Json> | Json[] | null;

/** Containers and leaves of a JSON value with their parent and key, breadth first; a deep nest is not walked. */
function nodesOf(root: Json): { parent: Parent; key: string | number; node: Json }[] {
  const out: { parent: Parent; key: string | number; node: Json; depth: number }[] = [
    { parent: null, key: '', node: root, depth: 0 },
  ];
  for (let i = 0; i < out.length; i++) {
    const { node, depth } = out[i];
    if (node === null || typeof node !== 'object' || depth >= 16) continue;
    for (const [k, v] of Object.entries(node))
      out.push({ parent: node as Parent, key: Array.isArray(node) ? Number(k) : k, node: v, depth: depth + 1 });
  }
  return out;
}

/** A deep nest stands as a marker string until the body is serialized: nothing has to walk it before. */
const NEST = '@@nest:';
export const serialize = (value: Json) =>
  JSON.stringify(value).replace(/"@@nest:(\d+)@@"/g, (_, depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);

export function mutate(value: Json, mutations: Mutation[]): Json {
  let root = structuredClone(value);
  for (const m of mutations) {
    const nodes = nodesOf(root);
    const { parent, key, node } = nodes[m.at % nodes.length];
    const replaced = m.kind === 'nest' ? `${NEST}${m.depth}@@` : structuredClone(m.value);
    if (m.kind === 'add' && node !== null && typeof node === 'object' && !Array.isArray(node))
      Object.defineProperty(node, m.key, { value: replaced, enumerable: true, writable: true, configurable: true });
    else if (m.kind === 'drop' && parent !== null) {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key as string];
    } else if (parent === null) root = replaced;
    else (parent as Record<string | number, Json>)[key] = replaced;
  }
  return root;
}
