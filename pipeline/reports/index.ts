export * from '../core/week.ts';
export * from './figures.ts';
export * from './freeze.ts';
export * from './corrections.ts';
export * from './read.ts';
export * from './notes.ts';
