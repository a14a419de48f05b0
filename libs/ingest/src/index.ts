export * from './events/domain/record-events';
export * from './events/event-view';
export * from './ingest.module';
