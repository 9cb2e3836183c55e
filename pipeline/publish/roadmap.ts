import { API_STATUS } from '../../site/contract/common.ts';
import { readFile } from 'node:fs/promises';
import { AtlasError } from '../core/errors.ts';
import { Roadmap, RoadmapFile } from '../../site/contract/index.ts';
import { apiPath as api } from './paths.ts';
import { validated, writeJson } from './write.ts';

/** roadmap.json from the tracked file data/roadmap.json (validated; a bad file fails the publish). */
export async function writeRoadmap(roadmapPath: string, genDir: string): Promise<void> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(roadmapPath, 'utf8'));
  } catch (e) {
    throw new AtlasError('invalid_input', `roadmap ${roadmapPath} cannot be read: ${(e as Error).message}`);
  }
  const file = validated(RoadmapFile, raw, `roadmap ${roadmapPath}`);
  await writeJson(api(genDir, 'roadmap.json'), Roadmap, { api_status: API_STATUS, ...file }, 'roadmap');
}
