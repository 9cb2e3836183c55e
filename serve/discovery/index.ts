export { cachedBody, DISCOVERY_CACHE_CONTROL, etagOf, mountDiscovery } from './mount.ts';
