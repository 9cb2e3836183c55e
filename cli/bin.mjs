#!/usr/bin/env node
// No build step: register tsx's loader, then run the TypeScript CLI.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
