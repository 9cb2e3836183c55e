export * from './cycle.ts';
export * from './due.ts';
