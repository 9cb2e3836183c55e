export { checkHistorySvg } from './history.ts';
export { latencySvg } from './latency.ts';
export { bucketByDay, dayRange } from './buckets.ts';
