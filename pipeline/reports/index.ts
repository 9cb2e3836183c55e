export * from './week.ts';
export * from './figures.ts';
export * from './freeze.ts';
export * from './corrections.ts';
export * from './read.ts';
export * from './notes.ts';
export { CHECKS_SQL } from './checks-figures.ts';
export { TERMS_SQL } from './terms-figures.ts';
