export * from './records.ts';
export * from './read.ts';
export * from './load.ts';
