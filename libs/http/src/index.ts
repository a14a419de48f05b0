export * from './api-errors';
export * from './api-json-body';
export * from './api-responses';
export * from './error-body.filter';
export * from './health.controller';
export * from './http-app';
export * from './metrics.controller';
export * from './uuid-param';
