import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../pipeline/docs/index.ts';

/**
 * Hostile and broken markup, as crawled documentation pages can be. The expected texts follow what a
 * browser shows (or hides), since the text is what a change to the page means to a reader.
 */
describe('htmlToText on hostile input', () => {
  it('drops script and style bodies even when they contain markup or comment openers', () => {
    expect(htmlToText('<script>document.write("</p><h1>x</h1><!--")</script><p>ok</p>')).toBe('ok');
    expect(htmlToText('<style>p::before{content:"<b>hi</b>"}</style><p>ok</p>')).toBe('ok');
    expect(htmlToText('<SCRIPT type=x>bad()</SCRIPT ><p>ok</p>')).toBe('ok');
    expect(htmlToText('<p>ok</p><script>never closed <p>hidden</p>')).toBe('ok');
  });

  it('drops comments, closed or not', () => {
    expect(htmlToText('<p>a<!-- <p>hidden</p> -->b</p>')).toBe('a b');
    expect(htmlToText('<p>x</p><!-- never closed <p>y</p>')).toBe('x');
  });

  it('reads CDATA in HTML as browsers do: a bogus comment up to the first >', () => {
    expect(htmlToText('<p>a<![CDATA[ <p>hidden</p> ]]>b</p>')).toBe('a hidden\n]]>b');
    expect(htmlToText('<p>a<![CDATA[x]]>b</p>')).toBe('a b');
  });

  it('decodes entities once, never into markup, and leaves invalid references as written', () => {
    expect(htmlToText('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe('<script>alert(1)</script>');
    expect(htmlToText('<p>&amp;lt;b&amp;gt;</p>')).toBe('&lt;b&gt;');
    expect(htmlToText('<p>&#0; &#xD800; &#x110000; &#99999999; &bogus; &amp</p>')).toBe(
      '&#0; &#xD800; &#x110000; &#99999999; &bogus; &amp',
    );
  });

  it('copes with malformed tags', () => {
    expect(htmlToText('<a href=">">link</a> <a title=\'x>y\' href="/z">two</a>')).toBe('link two');
    expect(htmlToText('<p>a</p <p>b')).toBe('a\nb');
    expect(htmlToText('< p>literal 1 < 2')).toBe('< p>literal 1 < 2');
    expect(htmlToText('<p>kept</p><a href="never closed>text')).toBe('kept');
  });

  it('handles deeply nested and megabyte pages without overflowing', () => {
    const para =
      '<div class="s"><h2 id="x">Pricing &amp; limits</h2><p>Price: <b>$0.01</b> per <a href="/c">call</a>.</p><pre>curl https://api.example/v1/x</pre><script>var a=1</script></div>\n';
    const page = `<!doctype html><html><head><title>T</title></head><body>${para.repeat(Math.ceil(1_048_576 / para.length))}</body></html>`;
    const text = htmlToText(page);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Pricing & limits',
      'Price: $0.01 per call .',
      'curl https://api.example/v1/x',
      'Pricing & limits',
    ]);
    expect(text.split('\n')).toHaveLength(3 * Math.ceil(1_048_576 / para.length));
    // Unclosed nesting at any depth: every element's text is kept and nothing overflows the stack.
    // Whether the cost per element stays flat with depth is a speed question: `npm run bench --
    // html-text` measures it as a ratio (tests never time anything).
    for (const depth of [1_000, 131_072]) {
      const out = htmlToText(`<p>start</p>${'<b>x'.repeat(depth)}${'<div>'.repeat(depth)}`);
      expect(out.startsWith('start\nx x')).toBe(true);
      expect(out.split(' ')).toHaveLength(depth);
    }
  });
});
