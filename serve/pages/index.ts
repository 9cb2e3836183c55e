/**
 * HTML routes of the server (CONTRACTS.md "Server"): `/`, `/services/:id`, `/status`, `/reports`,
 * `/assets/*`. `mountPages(app, deps)` is called by serve/app.ts `createApp`.
 */
export { mountPages } from './mount.ts';
