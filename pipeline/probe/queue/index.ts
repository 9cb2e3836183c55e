export * from './boss.ts';
export * from './payload.ts';
export * from './enqueue.ts';
export * from './load.ts';
export * from './worker.ts';
export * from './run-queued.ts';
