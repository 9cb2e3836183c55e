export * from './types.ts';
export * from './behaviours.ts';
export * from './timeline.ts';
export { startFleet } from './fleet.ts';
export { startFleetProcess, type FleetProcess, type ChildStats } from './process.ts';
export { FLEET_RESOLVE, DEFAULT_QUIRKS, X402_REGISTRY_PATH, MCP_REGISTRY_PATH } from './model.ts';
export { fleetConfig, type FleetConfigFragment } from './config.ts';
export { fleetAgent } from './dispatcher.ts';
export { FLEET_SUFFIX } from './state.ts';
export { UNKNOWN_ASSET, UNKNOWN_NETWORK, DECOY_AMOUNT, payToFor, type Offer } from './payment.ts';
export * from './hostile.ts';
export { INVALID_BASE64_HEADER, PRIVATE_REDIRECTS } from './respond-x402.ts';
export { DEFAULT_DOCS, docPage, type DocSpec } from './docs.ts';
export { fleetListings, writeFleetListings, type FleetListing, type ListingInput } from './listings.ts';
export {
  loadReal402Responses,
  parseReal402Examples,
  realdataDir,
  REAL_402_EXPECTED,
  REAL_402_FILE,
  REAL_402_FILE_2026,
  REAL_402_FILES,
  isReal402Behaviour,
  type Real402Response,
  type Real402Behaviour,
} from './real-402.ts';
export {
  loadRealMcpServers,
  REAL_MCP_EXPECTED,
  REAL_MCP_FILES,
  REAL_MCP_STATUSES,
  isRealMcpBehaviour,
  type RealMcpServer,
  type RealMcpBehaviour,
} from './real-mcp.ts';
