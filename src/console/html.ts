/**
 * HTML built from template literals: every interpolated value is escaped unless it is already
 * {@link Html} (a fragment built the same way), so a page cannot carry markup from its data.
 *
 * @module
 */

/** A fragment of HTML that is safe to insert as it is. */
export class Html {
  /** The markup. */
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `value` with `& < > " '` escaped: safe in text and in a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function part(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return value.map(part).join('');
  return escapeHtml(String(value));
}

/**
 * A template tag: `html\`<p>${name}</p>\`` escapes `name`; arrays are joined; `null`,
 * `undefined` and `false` render nothing (so `${cond && html\`…\`}` works).
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Markup written by this module's own code (SVG built from numbers), inserted as it is. */
export function trusted(text: string): Html {
  return new Html(text);
}
