export * from './html-text.ts';
export * from './normalize.ts';
export * from './line-diff.ts';
export * from './review-rule.ts';
export * from './summary.ts';
export * from './sink.ts';
export * from './list-changes.ts';
export * from './run-docs.ts';
