export * from './console-server.module';
export * from './console-server.options';
export * from './security-headers';
export * from './web-build.health';
