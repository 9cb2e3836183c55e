export * from './rules.ts';
export * from './run.ts';
export * from './operator.ts';
