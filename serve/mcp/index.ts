export * from './mount.ts';
export * from './server.ts';
export * from './tools.ts';
export * from './untrusted.ts';
export * from './result.ts';
export * from './input-schemas.ts';
export * from './output-schemas.ts';
export * from './era-2026.ts';
