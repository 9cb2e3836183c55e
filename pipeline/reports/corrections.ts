import { AtlasError } from '../core/errors.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { CORRECTION_NOTE_MAX, ReportCorrection } from '../../site/contract/reports.ts';
import { parseWeekId, weekId } from '../core/week.ts';

type FigureValue = ReportCorrection['figures'][string];

/**
 * Parse `PATH=VALUE` arguments of `atlas report correct --figure`. PATH is a dotted path to an
 * existing figure (a leaf) of the frozen body, e.g. `checks.by_kind.x402.missed`; VALUE is read as
 * JSON when it is a JSON scalar (number, true, false, null, "text") and as text otherwise.
 */
export function parseFigureAssignments(args: readonly string[], body: unknown): Record<string, FigureValue> {
  const out: Record<string, FigureValue> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new AtlasError('bad_usage', `--figure must be PATH=VALUE (got ${JSON.stringify(arg)})`);
    const path = arg.slice(0, eq).trim();
    const raw = arg.slice(eq + 1);
    let node: unknown = body;
    for (const seg of path.split('.')) {
      if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, seg)) {
        throw new AtlasError('invalid_input', `--figure ${path}: no such figure in the report`);
      }
      node = (node as Record<string, unknown>)[seg];
    }
    if (node !== null && typeof node === 'object')
      throw new AtlasError('invalid_input', `--figure ${path}: not a single figure (name a leaf)`);
    let value: FigureValue = raw;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed === null || ['number', 'string', 'boolean'].includes(typeof parsed)) value = parsed as FigureValue;
    } catch {
      /* plain text */
    }
    out[path] = value;
  }
  return out;
}

/** Corrections of one week, in order (seq 1, 2, …). */
export async function listCorrections(store: Store, week: string): Promise<ReportCorrection[]> {
  const rows = await store.all<{ seq: number; corrected_at: string; note: string; figures: string }>(
    `SELECT seq, corrected_at, note, figures FROM report_corrections WHERE week = $1::DATE ORDER BY seq`,
    [week],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    corrected_at: dbTimeToIso(r.corrected_at)!,
    note: r.note,
    figures: JSON.parse(r.figures),
  }));
}

/**
 * Append a correction to a frozen week. The frozen body is never touched; the correction gets the
 * next sequence number and is returned alongside the report from then on.
 */
export async function appendCorrection(
  store: Store,
  input: { week: string; note: string; figures?: readonly string[] },
  now: Date,
): Promise<ReportCorrection> {
  const ws = parseWeekId(input.week);
  if (!ws) throw new AtlasError('bad_usage', `--week must be a Monday in YYYY-MM-DD form (got ${JSON.stringify(input.week)})`);
  const note = input.note.trim();
  if (!note || note.length > CORRECTION_NOTE_MAX)
    throw new AtlasError('bad_usage', `--note must be 1 to ${CORRECTION_NOTE_MAX} characters`);
  return store.transaction(async () => {
    const [row] = await store.all<{ body: string }>(`SELECT body FROM reports WHERE week = $1::DATE`, [weekId(ws)]);
    if (!row) throw new AtlasError('not_found', `no frozen report for the week of ${weekId(ws)}`);
    const figures = parseFigureAssignments(input.figures ?? [], JSON.parse(row.body));
    const [next] = await store.all<{ seq: number }>(
      `SELECT (coalesce(max(seq), 0) + 1)::INTEGER AS seq FROM report_corrections WHERE week = $1::DATE`,
      [weekId(ws)],
    );
    const correction = ReportCorrection.parse({ seq: Number(next?.seq ?? 1), corrected_at: now.toISOString(), note, figures });
    await store.run(
      `INSERT INTO report_corrections (week, seq, corrected_at, note, figures) VALUES ($1::DATE, $2, $3::TIMESTAMP, $4, $5::JSON)`,
      [weekId(ws), correction.seq, correction.corrected_at, correction.note, JSON.stringify(correction.figures)],
    );
    return correction;
  });
}
