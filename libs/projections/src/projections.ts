import { INGEST_PROJECTIONS } from '@agentwatch/ingest';
import { ProjectionDefinition } from '@agentwatch/kafka';

/** Every read model the projector maintains (and `agentwatch replay` can rebuild). */
export const PROJECTIONS: ProjectionDefinition[] = [...INGEST_PROJECTIONS];
