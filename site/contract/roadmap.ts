import { z } from 'zod';
import { ApiStatus, Day, RoadmapStatus } from './common.ts';

export const RoadmapItem = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string(),
  status: RoadmapStatus,
  done_on: Day.nullable(),
});

/** The tracked file data/roadmap.json (no api_status; publish adds it). */
export const RoadmapFile = z.strictObject({
  measured_today: z.array(z.string()),
  items: z.array(RoadmapItem),
  note: z.string(),
});
export type RoadmapFile = z.infer<typeof RoadmapFile>;

/** GET /api/v1/roadmap: planned, not promised, no dates. */
export const Roadmap = RoadmapFile.extend({ api_status: ApiStatus });
export type Roadmap = z.infer<typeof Roadmap>;
