import { ProjectionDefinition } from '@agentwatch/kafka';
import { PROJECTIONS } from './projections';

/** The projections `replay --projection <names…>` rebuilds: those named, and those rebuilt with them. */
export function selectProjections(names: string[]): ProjectionDefinition[] {
  if (names.includes('all')) return PROJECTIONS;
  const unknown = names.filter((name) => !PROJECTIONS.some((p) => p.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown projection(s) ${unknown.join(', ')}; known: ${PROJECTIONS.map((p) => p.name).join(', ')}, all`,
    );
  }
  const selected = new Set(names);
  // Closed over rebuiltWith: a projection comes along with every one it is rebuilt with.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of PROJECTIONS) {
      if (!selected.has(p.name) && p.rebuiltWith?.some((name) => selected.has(name))) {
        selected.add(p.name);
        grew = true;
      }
    }
  }
  return PROJECTIONS.filter((p) => selected.has(p.name));
}
