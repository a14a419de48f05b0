/**
 * The apps' own configuration (docs/operations.md and .env.example): what a test stack sets on purpose or
 * leaves at its default, never what the caller's shell happens to export. Only the infrastructure
 * passes through: DATABASE_URL (and its role password), KAFKA_BROKERS, KAFKA_PARTITIONS, the run's
 * topic prefix, PATH and the like.
 */
const PRODUCT_CONFIGURATION = [
  /^AUTH_/,
  /^OPERATOR_/,
  /^LLM_/,
  /^CONTROL_/,
  /^CONSOLE_/,
  /^(CLOUD_API|SCORING_API|CONTROL_PLANE)_URL$/,
  /^INGEST_RATE_LIMIT_/,
  /_PORT$/,
  /^DATABASE_(APP|OWNER|PROJECTOR|CONTROL)_URL$/,
  /^KAFKA_(PUBLISH|SESSION)_TIMEOUT_MS$/,
  /^AGENTWATCH_(FAILPOINT|DELAYPOINT)$/,
  /^(HOST|LOG_LEVEL)$/,
];

export const isProductConfiguration = (name: string) => PRODUCT_CONFIGURATION.some((pattern) => pattern.test(name));

/** process.env without the product configuration: the base of every environment a test gives an app. */
export function infrastructureEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isProductConfiguration(name)));
}
