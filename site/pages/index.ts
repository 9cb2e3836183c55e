/**
 * Web pages (plain HTML + CSS, no framework). Pure render functions from the contract types to
 * strings, shared by the static tree (pipeline/publish/write-pages.ts, before the pointer switch)
 * and the server (`serve/pages`).
 */
export { renderDirectoryPage, formFromQuery, queryString } from './directory.ts';
export { renderServicePage } from './service.ts';
export { renderStatusPage } from './status.ts';
export { renderReportsPage, flattenFigures } from './reports.ts';
export type { ReportView } from './reports.ts';
export { renderErrorPage } from './error-page.ts';
export { defaultDirectoryList, compareEvidence } from './static-list.ts';
export { CSS, JS } from './assets.ts';
export { checkHistorySvg, latencySvg, bucketByDay, dayRange } from './charts/index.ts';
export type { PageMeta, DayBucket } from './model.ts';
