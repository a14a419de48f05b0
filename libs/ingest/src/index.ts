export * from './events/domain/event-ids';
export * from './events/domain/record-events';
export * from './events/event-view';
export * from './events/events.projection';
export * from './ingest.module';
