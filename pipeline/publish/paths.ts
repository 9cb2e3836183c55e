import { join } from 'node:path';

/** `<generation>/api/v1/...` (paths mirror the API so a static host serves most of the tree). */
export const apiPath = (genDir: string, ...p: string[]) => join(genDir, 'api', 'v1', ...p);
