import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from '../../src/console/html';

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

describe('console html: data never becomes markup', () => {
  it('property: an escaped value holds no < > " \' and no bare &, and unescapes to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const escaped = escapeHtml(value);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
        expect(unescapeHtml(escaped)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a value interpolated in text or a quoted attribute leaves the template markup as written', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 3 }), (value, list) => {
        const page = html`<p title="${value}">${value}</p><ul>${list.map((x) => html`<li>${x}</li>`)}</ul>`.text;
        const tags = page.match(/<[^>]*>/g) ?? [];
        expect(tags.filter((t) => !/^<\/?(p|ul|li)( title="[^"<>]*")?>$/.test(t))).toEqual([]);
        expect(tags.length).toBe(4 + 2 * list.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('fragments and trusted markup are inserted as they are; null, undefined and false render nothing', () => {
    expect(html`<b>${html`<i>${'<x>'}</i>`}</b>${null}${undefined}${false}${trusted('<svg/>')}`.text).toBe('<b><i>&lt;x&gt;</i></b><svg/>');
  });
});
