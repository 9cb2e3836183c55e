export * from './store.ts';
export * from './migrate.ts';
export * from './query.ts';
export * from './snapshot.ts';
export * from './export.ts';
export * from './runs.ts';
export * from './rules.ts';
export * from './history.ts';
