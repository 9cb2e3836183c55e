import { describe, expect, it } from 'vitest';
import { canonicalJson, decodeEntities, htmlToText, normalizeContent } from '../../../pipeline/docs/index.ts';

const PAGE = `<!doctype html><html><head><title>Weather API</title><style>body{color:red}</style></head>
<body><script>window.x = Date.now();</script>
  <h1>Weather   API</h1>
  <p>Price: <b>$0.01</b> per call, paid in USDC on Base.</p>
  <!-- build 1234 -->
  <ul><li>GET /v1/forecast</li><li>Auth: none</li></ul>
</body></html>`;

describe('documentation normalization', () => {
  it('turns HTML into text lines: scripts, styles and comments dropped, tags stripped, whitespace collapsed', () => {
    expect(htmlToText(PAGE)).toBe(
      ['Weather API', 'Price: $0.01 per call, paid in USDC on Base.', 'GET /v1/forecast', 'Auth: none'].join('\n'),
    );
  });

  it('ignores cosmetic changes: re-indentation, line wrapping, scripts, styles, comments', () => {
    const cosmetic = PAGE.replace('<script>window.x = Date.now();</script>', '<script src="/a.js?v=2"></script><script>track()</script>')
      .replace('<!-- build 1234 -->', '<!-- build 5678 -->')
      .replace('<p>Price:', '<p class="lead">\n      Price:')
      .replace('body{color:red}', 'body{color:blue}');
    expect(normalizeContent(cosmetic, 'text/html').hash).toBe(normalizeContent(PAGE, 'text/html; charset=utf-8').hash);
    expect(normalizeContent(Buffer.from(PAGE), 'text/html').hash).toBe(normalizeContent(PAGE, 'text/html').hash);
  });

  it('keeps the lines of <pre> code samples', () => {
    expect(htmlToText('<p>Example:</p><pre>curl \\\n  -H "X-API-Key: k" \\\n  https://api.example/v1/x</pre>')).toBe(
      ['Example:', 'curl \\', '-H "X-API-Key: k" \\', 'https://api.example/v1/x'].join('\n'),
    );
  });

  it('finishes on hostile markup (unclosed tags, scripts and comments)', () => {
    for (const unit of ['<a ', '<script>', '<!--', '<pre>x', '&#x']) {
      // Finishing at all is the point (a quadratic scan would run into the test timeout).
      expect(htmlToText(`<p>start</p>${unit.repeat(50_000)}`).startsWith('start'), unit).toBe(true);
    }
    expect(htmlToText('<p>a < b and c > d</p><script>never closed')).toBe('a < b and c > d');
    expect(htmlToText('<header>Top</header><p>x</p>')).toBe('Top\nx');
  });

  it('decodes entities', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#36;5 &#x24;6 &nbsp;&mdash; &bogus;')).toBe('a & b <c> $5 $6  — &bogus;');
    expect(htmlToText('<p>Tom&nbsp;&amp;&nbsp;Jerry&#39;s &quot;API&quot;</p>')).toBe('Tom & Jerry\'s "API"');
  });

  it('canonicalizes JSON with sorted keys so key order and formatting are no change', () => {
    const a = normalizeContent('{"b":1,"a":{"y":[1,2],"x":"s"}}', 'application/json');
    const b = normalizeContent('{\n  "a": {"x": "s", "y": [1, 2]},\n  "b": 1\n}', 'application/json');
    expect(a.kind).toBe('json');
    expect(a.hash).toBe(b.hash);
    expect(canonicalJson({ b: 1, a: { y: [1, 2], x: 's' } })).toBe(
      '{\n  "a": {\n    "x": "s",\n    "y": [\n      1,\n      2\n    ]\n  },\n  "b": 1\n}',
    );
    // JSON sniffed without a content type; invalid JSON falls back to text.
    expect(normalizeContent('[1, 2]', null).kind).toBe('json');
    expect(normalizeContent('{not json', 'application/json').kind).toBe('text');
  });

  it('normalizes plain text: CRLF, BOM, trailing spaces and blank lines', () => {
    expect(normalizeContent('\ufeff# Title\r\n\r\n  Some   text  \r\n', 'text/markdown').text).toBe('# Title\nSome text');
  });
});
