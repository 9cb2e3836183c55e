export * from './read.ts';
export * from './load.ts';
