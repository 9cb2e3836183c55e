export * from './app.ts';
export * from './deps.ts';
export * from './server.ts';
export * from './mounts.ts';
export * from './operations/index.ts';
