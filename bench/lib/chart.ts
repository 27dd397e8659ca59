// A small hand-written SVG bar chart for the README: throughput (MB/s) of each contender on a few corpora,
// grouped by contender, one colour per corpus. No dependencies; the output is deterministic for given data.

export interface ChartSeries {
  corpus: string;
  /** MB/s per contender; undefined for a timeout or error (drawn as a label, no bar). */
  values: Map<string, number | undefined>;
  /** What to print instead of a bar when the value is undefined. */
  notes: Map<string, string>;
}

const COLOURS = ['#2f6db5', '#e08a1e', '#3a9b4a', '#b8433c', '#7d5ab5'];

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function niceStep(max: number): number {
  const raw = max / 6;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export function barChartSvg(title: string, subtitle: string, contenders: string[], series: ChartSeries[]): string {
  const labelW = 130;
  const plotW = 560;
  const barH = 13;
  const groupGap = 12;
  const top = 62;
  const groupH = series.length * barH + groupGap;
  const legendH = 24;
  const height = top + contenders.length * groupH + 28 + legendH;
  const width = labelW + plotW + 70;
  let max = 0;
  for (const s of series) for (const v of s.values.values()) if (v !== undefined && v > max) max = v;
  if (max === 0) max = 1;
  const step = niceStep(max);
  const axisMax = Math.ceil(max / step) * step;
  const x = (v: number): number => labelW + (v / axisMax) * plotW;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="12" y="22" font-size="15" font-weight="600">${esc(title)}</text>`);
  out.push(`<text x="12" y="40" fill="#555">${esc(subtitle)}</text>`);
  const plotBottom = top + contenders.length * groupH;
  for (let v = 0; v <= axisMax + 1e-9; v += step) {
    const gx = x(v).toFixed(1);
    out.push(`<line x1="${gx}" y1="${top - 6}" x2="${gx}" y2="${plotBottom}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${gx}" y="${plotBottom + 14}" text-anchor="middle" fill="#555">${+v.toFixed(2)}</text>`);
  }
  out.push(`<text x="${labelW + plotW / 2}" y="${plotBottom + 28}" text-anchor="middle" fill="#333">MB/s (higher is better)</text>`);
  contenders.forEach((c, gi) => {
    const gy = top + gi * groupH;
    const weight = c === 'irilink' ? ' font-weight="700"' : '';
    out.push(
      `<text x="${labelW - 8}" y="${gy + (series.length * barH) / 2 + 4}" text-anchor="end"${weight}>${esc(c)}</text>`,
    );
    series.forEach((s, si) => {
      const y = gy + si * barH;
      const v = s.values.get(c);
      if (v === undefined) {
        const note = s.notes.get(c) ?? 'n/a';
        out.push(`<text x="${labelW + 4}" y="${y + barH - 3}" fill="${COLOURS[si % COLOURS.length]}" font-style="italic">${esc(note)}</text>`);
        return;
      }
      const w = Math.max(1, x(v) - labelW);
      out.push(`<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH - 2}" fill="${COLOURS[si % COLOURS.length]}"/>`);
      out.push(`<text x="${(labelW + w + 4).toFixed(1)}" y="${y + barH - 3}" fill="#222">${v >= 100 ? v.toFixed(0) : v.toFixed(1)}</text>`);
    });
  });
  let lx = labelW;
  const ly = height - 12;
  series.forEach((s, si) => {
    out.push(`<rect x="${lx}" y="${ly - 10}" width="12" height="12" fill="${COLOURS[si % COLOURS.length]}"/>`);
    out.push(`<text x="${lx + 16}" y="${ly}">${esc(s.corpus)}</text>`);
    lx += 24 + s.corpus.length * 7.5;
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
