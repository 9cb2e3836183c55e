export * from './badge.ts';
export * from './llms.ts';
export * from './server-json.ts';
