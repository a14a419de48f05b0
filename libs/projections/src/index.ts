// The projector's read models as one unit, above the context libs that define them: the projector
// app runs them, and the CLI's replay rebuilds them, without either app importing the other.
export * from './projections';
export * from './projector.module';
export * from './rebuild';
export * from './select-projections';
