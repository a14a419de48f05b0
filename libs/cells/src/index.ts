export * from './cells.module';
export * from './data-keys';
export * from './domain/placement';
export * from './domain/sealed-value';
export * from './payload-sealing';
export * from './route-directory';
export * from './tenant-data';
export * from './tenant-databases';
