/**
 * The connection helper lives in pipeline/core/postgres.ts so that serve/ (which may import only
 * serve/, site/ and pipeline/core/) opens PostgreSQL the same way as the pipeline.
 */
export * from '../core/postgres.ts';
