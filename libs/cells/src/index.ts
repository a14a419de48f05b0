export * from './cells.module';
export * from './domain/placement';
export * from './record-router';
export * from './route-directory';
export * from './tenant-data';
export * from './tenant-databases';
