export * from './compare.ts';
export * from './queries.ts';
export * from './verify.ts';
