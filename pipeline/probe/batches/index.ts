export * from './format.ts';
export * from './writer.ts';
export * from './run.ts';
export * from './load.ts';
