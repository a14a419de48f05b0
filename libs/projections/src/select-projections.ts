import { ProjectionDefinition } from '@agentwatch/kafka';
import { PROJECTIONS } from './projections';

/** The projections `replay --projection <names…>` rebuilds. */
export function selectProjections(names: string[]): ProjectionDefinition[] {
  if (names.includes('all')) return PROJECTIONS;
  const unknown = names.filter((name) => !PROJECTIONS.some((p) => p.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown projection(s) ${unknown.join(', ')}; known: ${PROJECTIONS.map((p) => p.name).join(', ')}, all`,
    );
  }
  return PROJECTIONS.filter((p) => names.includes(p.name));
}
