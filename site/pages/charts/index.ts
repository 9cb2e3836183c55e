export { checkHistorySvg } from './history.ts';
export type { HistoryChartOptions } from './history.ts';
export { latencySvg } from './latency.ts';
export type { LatencyChartOptions } from './latency.ts';
export { bucketByDay, dayRange } from './buckets.ts';
