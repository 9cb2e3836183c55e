export * from './postgres.ts';
export * from './migrate.ts';
