export * from './types.ts';
export * from './behaviours.ts';
export * from './timeline.ts';
export { startFleet } from './fleet.ts';
export { startFleetProcess, type FleetProcess } from './process.ts';
export { fleetConfig } from './config.ts';
export { fleetAgent } from './dispatcher.ts';
export * from './hostile.ts';
export { writeFleetListings } from './listings.ts';
export { DECLARED_CASES } from './declared.ts';
export {
  loadReal402Responses,
  parseReal402Examples,
  realdataDir,
  REAL_402_EXPECTED,
  REAL_402_FILE_2026,
  REAL_402_FILES,
  type Real402Response,
} from './real-402.ts';
export {
  loadRealMcpServers,
  REAL_MCP_FILES,
  REAL_MCP_STATUSES,
} from './real-mcp.ts';
