import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The part manuals (docs/notes/*.md) read alike: a `# ` title, then exactly these `## ` headings in
 * this order, each with something under it (a heading that does not apply says so in one line).
 * And the manuals are a manual, not a change log: no file of docs/ nor README.md carries the
 * wording of the process that wrote it.
 */
const HEADINGS = [
  'What it does',
  'How to run it',
  'How it works',
  'Rules and figures',
  'Failure and recovery',
  'Performance',
  'Limits',
  'Files',
] as const;

/** Wording of the process, not of the product (matched case-insensitively, as whole phrases). */
const PROCESS_PHRASES = [
  'your report',
  'say so in',
  'this round',
  'the round before',
  'last round',
  'the issue asks',
  'this issue',
  'we changed',
  'previously',
  'the lead',
  'this session',
  'as before',
  'the brief',
] as const;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Headings outside fenced code blocks (a `# comment` in a shell example is not a heading). */
function headingsOf(text: string): { level: number; title: string; body: string[] }[] {
  const out: { level: number; title: string; body: string[] }[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^(#{1,6}) (.*)$/.exec(line);
    if (m) out.push({ level: m[1]!.length, title: m[2]!.trim(), body: [] });
    else out.at(-1)?.body.push(line);
  }
  return out;
}

/** What is wrong with one manual's structure (empty when it follows the headings). */
function manualProblems(text: string): string[] {
  const problems: string[] = [];
  const all = headingsOf(text);
  if (!text.startsWith('# ')) problems.push('does not start with a "# " title');
  if (all.filter((h) => h.level === 1).length !== 1) problems.push('has not exactly one "# " title');
  const sections = all.filter((h) => h.level === 2).map((h) => h.title);
  if (JSON.stringify(sections) !== JSON.stringify(HEADINGS))
    problems.push(`"## " headings are [${sections.join(', ')}], expected [${HEADINGS.join(', ')}]`);
  // A section is filled by text of its own or by a subsection.
  all.forEach((h, i) => {
    if (h.level !== 2) return;
    const hasText = h.body.some((l) => l.trim() !== '');
    const hasSubsection = (all[i + 1]?.level ?? 0) > 2;
    if (!hasText && !hasSubsection) problems.push(`"## ${h.title}" is empty`);
  });
  return problems;
}

/** Process phrases a text carries, with their line numbers. */
function processWording(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const p of PROCESS_PHRASES) if (new RegExp(`\\b${p.replace(/ /g, '\\s+')}\\b`, 'i').test(line)) found.push(`${i + 1}: "${p}"`);
  });
  return found;
}

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name).slice(ROOT.length));
}

const manuals = markdownUnder('docs/notes');
const documents = [...markdownUnder('docs'), 'README.md'];

describe('the part manuals', () => {
  it('are found', () => {
    expect(manuals.length).toBeGreaterThanOrEqual(10);
    expect(manuals).toContain('docs/notes/probe.md');
  });

  it.each(manuals)('%s has the headings, in order, none empty', (file) => {
    expect(manualProblems(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});

describe('no process wording in the docs', () => {
  it('covers every document of docs/ and the README', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/design.md', 'docs/notes/serve.md']));
  });

  it.each(documents)('%s', (file) => {
    expect(processWording(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});

describe('the checks can fail (synthetic manuals)', () => {
  const section = (title: string, body = 'Text.') => `## ${title}\n\n${body}\n`;
  const good = `# A part\n\n${HEADINGS.map((h) => section(h)).join('\n')}`;

  it('accepts a manual with every heading, a one-line "does not apply" included', () => {
    expect(manualProblems(good.replace('## Limits\n\nText.', '## Limits\n\nDoes not apply: nothing is bounded.'))).toEqual([]);
  });

  it('accepts a section filled only by subsections, and ignores "#" lines inside code', () => {
    const text = good.replace('## Files\n\nText.', '## Files\n\n### Tables\n\nOne.\n\n```\n# a shell comment\n```');
    expect(manualProblems(text)).toEqual([]);
  });

  it('finds a missing, a swapped, an extra and an empty heading', () => {
    expect(manualProblems(good.replace(section('Limits'), ''))).toEqual([expect.stringContaining('expected')]);
    const swapped = good
      .replace('## How to run it', '## TMP')
      .replace('## How it works', '## How to run it')
      .replace('## TMP', '## How it works');
    expect(manualProblems(swapped)).toEqual([expect.stringContaining('expected')]);
    expect(manualProblems(`${good}\n## History\n\nOld.\n`)).toEqual([expect.stringContaining('History')]);
    expect(manualProblems(good.replace('## Limits\n\nText.', '## Limits\n\n'))).toEqual(['"## Limits" is empty']);
  });

  it('finds a title missing or doubled', () => {
    expect(manualProblems(good.replace('# A part\n', ''))).toContain('does not start with a "# " title');
    expect(manualProblems(`${good}\n# Another part\n`)).toContain('has not exactly one "# " title');
  });

  it('finds process wording in any case, line by line, and not inside other words', () => {
    expect(processWording('Say so in\nyour report.')).toEqual(['1: "say so in"', '2: "your report"']);
    expect(processWording('This was previously done\nas before, this round.')).toEqual([
      '1: "previously"',
      '2: "this round"',
      '2: "as before"',
    ]);
    expect(processWording('The leader election; a mislead; as beforehand.')).toEqual([]);
  });
});
