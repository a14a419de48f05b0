export * from './bootstrap';
export * from './database.config';
export * from './database.module';
export * from './event-risk-lock';
export * from './index-lookups';
export * from './migrations';
export * from './org-scope';
export * from './rebuild';
