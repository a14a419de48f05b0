export * from './api-keys';
export * from './identity.module';
export * from './machines/checkins';
export * from './organizations';
