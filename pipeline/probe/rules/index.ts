export * from './reviewed.ts';
export * from './mcp-reach.ts';
export * from './x402-mainnet.ts';
