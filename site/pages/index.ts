/**
 * Web pages (plain HTML + CSS, no framework). Pure render functions from the contract types to
 * strings, shared by the static tree (`writePages`, called by publish before the pointer switch)
 * and the server (`serve/pages`).
 */
export { writePages, readReports, staticServicePage } from './write.ts';
export type { WritePagesOptions } from './write.ts';
export { renderDirectoryPage, renderSearchForm, renderServiceRow, formFromQuery, queryString, FORM_FIELDS } from './directory.ts';
export type { DirectoryForm, DirectoryPageInput } from './directory.ts';
export { renderServicePage } from './service.ts';
export { renderStatusPage } from './status.ts';
export { renderReportsPage, renderReport, flattenFigures } from './reports.ts';
export type { ReportView } from './reports.ts';
export { renderErrorPage } from './error-page.ts';
export { defaultDirectoryList, compareEvidence } from './static-list.ts';
export { CSS, JS, ASSET_PATHS } from './assets.ts';
export { checkHistorySvg, latencySvg, bucketByDay, dayRange } from './charts/index.ts';
export type { PageMeta, CheckPoint, DayBucket } from './model.ts';
