export * from './store.ts';
export * from './migrate.ts';
export * from './query.ts';
