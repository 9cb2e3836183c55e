export { mountDiscovery } from './mount.ts';
