/**
 * Charts drawn on the server as SVG: numbers in, markup out (no script, no style attribute).
 *
 * @module
 */
import { escapeHtml, trusted, type Html } from './html';

/** One bar: a variation's rate and its 95% interval, all in [0, 1]. */
export interface RateBar {
  readonly label: string;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly reference: boolean;
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();
const percent = (n: number) => `${(n * 100).toFixed(n < 0.1 ? 2 : 1)}%`;

/** Wilson score interval of `converted / exposed` at 95%. */
export function wilson(converted: number, exposed: number): { low: number; high: number } {
  if (exposed <= 0) return { low: 0, high: 0 };
  const z = 1.959963984540054;
  const p = converted / exposed;
  const d = 1 + (z * z) / exposed;
  const centre = (p + (z * z) / (2 * exposed)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / exposed + (z * z) / (4 * exposed * exposed))) / d;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Horizontal bars, one per variation, with their interval drawn across. */
export function rateChart(title: string, bars: readonly RateBar[]): Html {
  const width = 640;
  const left = 150;
  const right = 70;
  const row = 34;
  const top = 30;
  const height = top + bars.length * row + 30;
  const max = Math.max(0.01, ...bars.map((b) => b.high)) * 1.1;
  const x = (v: number) => left + (v / max) * (width - left - right);
  const parts: string[] = [];
  for (let t = 0; t <= 4; t++) {
    const v = (max * t) / 4;
    parts.push(
      `<line class="grid" x1="${f(x(v))}" x2="${f(x(v))}" y1="${top - 6}" y2="${height - 24}"/>`,
      `<text x="${f(x(v))}" y="${height - 8}" text-anchor="middle">${percent(v)}</text>`,
    );
  }
  bars.forEach((b, i) => {
    const y = top + i * row;
    parts.push(
      `<text x="${left - 8}" y="${y + 17}" text-anchor="end">${escapeHtml(b.label.length > 20 ? `${b.label.slice(0, 19)}…` : b.label)}</text>`,
      `<rect class="bar${b.reference ? ' ref' : ''}" x="${left}" y="${y + 4}" width="${f(x(b.rate) - left)}" height="${row - 12}"><title>${escapeHtml(b.label)}: ${percent(b.rate)} (95% interval ${percent(b.low)} to ${percent(b.high)})</title></rect>`,
      `<line class="ci" x1="${f(x(b.low))}" x2="${f(x(b.high))}" y1="${y + row / 2 - 2}" y2="${y + row / 2 - 2}"/>`,
      `<line class="ci" x1="${f(x(b.low))}" x2="${f(x(b.low))}" y1="${y + 9}" y2="${y + row - 13}"/>`,
      `<line class="ci" x1="${f(x(b.high))}" x2="${f(x(b.high))}" y1="${y + 9}" y2="${y + row - 13}"/>`,
      `<text x="${f(x(b.high) + 6)}" y="${y + 17}">${percent(b.rate)}</text>`,
    );
  });
  parts.push(`<line class="axis" x1="${left}" x2="${left}" y1="${top - 6}" y2="${height - 24}"/>`);
  return svg(title, width, height, 'rates', parts);
}

/** One series of a line chart: points as [time, value], time ascending. */
export interface Series {
  readonly label: string;
  readonly points: readonly (readonly [number, number])[];
}

/** Two lines over time (exposures, conversions), each with its dots and a legend. */
export function lineChart(title: string, series: readonly [Series, Series], formatTime: (t: number) => string): Html {
  const width = 640;
  const height = 260;
  const left = 60;
  const right = 20;
  const top = 34;
  const bottom = 40;
  const times = series.flatMap((s) => s.points.map((p) => p[0]));
  const t0 = Math.min(...times);
  const t1 = Math.max(t0 + 1, ...times);
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[1])));
  const x = (t: number) => left + ((t - t0) / (t1 - t0)) * (width - left - right);
  const y = (v: number) => height - bottom - (v / max) * (height - top - bottom);
  const parts: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = Math.round((max * k) / 4);
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - right}" y1="${f(y(v))}" y2="${f(y(v))}"/>`,
      `<text x="${left - 6}" y="${f(y(v) + 4)}" text-anchor="end">${v}</text>`,
    );
  }
  parts.push(
    `<text x="${left}" y="${height - 12}">${escapeHtml(formatTime(t0))}</text>`,
    `<text x="${width - right}" y="${height - 12}" text-anchor="end">${escapeHtml(formatTime(t1))}</text>`,
    `<line class="axis" x1="${left}" x2="${width - right}" y1="${height - bottom}" y2="${height - bottom}"/>`,
  );
  let legendX = left;
  series.forEach((s, i) => {
    const cls = i === 0 ? 'a' : 'b';
    const d = s.points.map((p, k) => `${k === 0 ? 'M' : 'L'}${f(x(p[0]))},${f(y(p[1]))}`).join(' ');
    parts.push(`<path class="line-${cls}" d="${d}"/>`);
    for (const p of s.points)
      parts.push(
        `<circle class="dot-${cls}" cx="${f(x(p[0]))}" cy="${f(y(p[1]))}" r="3"><title>${escapeHtml(s.label)} ${p[1]} at ${escapeHtml(formatTime(p[0]))}</title></circle>`,
      );
    parts.push(
      `<rect class="dot-${cls}" x="${legendX}" y="8" width="12" height="12"/>`,
      `<text x="${legendX + 18}" y="19">${escapeHtml(s.label)}</text>`,
    );
    // About 7 px per character of the 12 px font, then a gap.
    legendX += 18 + s.label.length * 7 + 24;
  });
  return svg(title, width, height, 'timeline', parts);
}

function svg(title: string, width: number, height: number, kind: string, parts: string[]): Html {
  return trusted(
    `<svg class="chart" data-chart="${kind}" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>`,
  );
}
