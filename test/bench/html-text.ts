/**
 * Benchmark of the documentation pipeline's HTML-to-text scan (pipeline/docs/html-text.ts) on a
 * realistic 1 MB page and on hostile unclosed nesting at two depths (the ratio shows whether the
 * cost per element grows with depth: about 2 is linear).
 *
 *   npm run bench -- html-text
 *
 * Reference figures from the run that kept the hand-written scan over htmlparser2 12 (Node 20, 2
 * shared cores): realistic 1 MB page 368 ms (htmlparser2: 865 ms, same text); 100k unclosed `<b>x`
 * 400 ms (htmlparser2: 8.1 s, quadratic: its element stack grows with Array.unshift).
 */
import { htmlToText } from '../../pipeline/docs/html-text.ts';

function best(html: string, runs = 3): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    htmlToText(html);
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export async function run(_args: string[]): Promise<void> {
  const para =
    '<div class="section"><h2 id="x">Pricing &amp; limits</h2><p>Price: <b>$0.01</b> per call, paid in <a href="/usdc">USDC</a> on Base.</p><ul><li>GET /v1/forecast</li><li>Auth: none</li></ul><pre>curl -H "X" https://api.example/v1/x</pre><script>var a=1</script></div>\n';
  const page = `<!doctype html><html><head><title>T</title></head><body>${para.repeat(Math.ceil(1_048_576 / para.length))}</body></html>`;
  process.stdout.write(`realistic page ${(page.length / 1024).toFixed(0)} KiB: ${best(page).toFixed(0)} ms\n`);
  const nest = (n: number) => `<p>start</p>${'<b>x'.repeat(n)}`;
  const a = best(nest(131_072));
  const b = best(nest(262_144));
  process.stdout.write(
    `unclosed <b>x: 131072 deep ${a.toFixed(0)} ms, 262144 deep (1 MB) ${b.toFixed(0)} ms, ratio ${(b / a).toFixed(2)}\n`,
  );
}
