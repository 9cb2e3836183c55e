export * from './publish.ts';
export * from './generation.ts';
export * from './services.ts';
export * from './resources.ts';
export * from './write.ts';
