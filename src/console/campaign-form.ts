/**
 * The "New campaign" form of an environment page: a campaign a new user can start from (one
 * variation group targeting everyone, variations sharing the traffic evenly, one flag whose value
 * differs per variation, or search settings per variation for an A/B test of search), built
 * here and checked by the API's campaign schema.
 *
 * @module
 */
import { ValidationError, type ErrorDetail } from '../errors';
import { type Campaign, campaignSchema, CONFIG_LIMITS } from '../model/bucketing-config';
import { SEARCH_MODIFICATION_TYPE, searchModificationSchema } from '../model/search-settings';
import { parseWith } from '../validation';
import { html, type Html } from './html';
import { fieldError, postForm, type PageContext } from './page';

/** Campaign types the form offers. */
export const CAMPAIGN_TYPES = ['ab', 'toggle', 'perso'] as const;

/** Fewest and most variations of a campaign made by the form (`<id>-a` … `<id>-j`). */
export const NEW_CAMPAIGN_VARIATIONS = Object.freeze({ min: 1, max: 10 });

/** What the variations of a campaign made by the form change: a flag's value, or search settings. */
export const CHANGES = { flag: 'Flag value', search: 'Search settings' } as const;

/** The form's fields, in page order: problems are shown at these. */
const FIELDS = ['id', 'name', 'type', 'changes', 'variations', 'flag', 'catalog', 'values'] as const;
type Field = (typeof FIELDS)[number];

/** The field a schema problem belongs to: ids derived from the campaign id are shown at `id`. */
function fieldOf(path: readonly (string | number)[]): Field | '' {
  const [head] = path;
  if (head === 'id' || head === 'name' || head === 'type') return head;
  const last = path[path.length - 1];
  if (last === 'id') return 'id';
  if (path.includes('modifications')) return 'values';
  if (path.includes('variations')) return 'variations';
  return '';
}

/**
 * The campaign the form describes, checked by `campaignSchema`; a {@link ValidationError} whose
 * details' paths are the form's fields.
 */
export function campaignOfForm(form: URLSearchParams): Campaign {
  const problems: ErrorDetail[] = [];
  const id = form.get('id') ?? '';
  const name = (form.get('name') ?? '').trim();
  const type = form.get('type') ?? '';
  const flag = (form.get('flag') ?? '').trim();
  const changes = form.get('changes') ?? 'flag';
  const catalog = (form.get('catalog') ?? '').trim();
  const count = Number(form.get('variations') ?? '2');
  const { min, max } = NEW_CAMPAIGN_VARIATIONS;
  if (!(CAMPAIGN_TYPES as readonly string[]).includes(type))
    problems.push({ path: ['type'], message: `must be one of ${CAMPAIGN_TYPES.join(', ')}` });
  if (!Number.isInteger(count) || count < min || count > max)
    problems.push({ path: ['variations'], message: `must be a whole number from ${min} to ${max}` });
  // The group and variation ids add up to 3 characters to the campaign id.
  if (id.length < 1 || id.length > CONFIG_LIMITS.idLength - 3)
    problems.push({ path: ['id'], message: `must be 1 to ${CONFIG_LIMITS.idLength - 3} characters (its variation ids add 3)` });
  if (!Object.hasOwn(CHANGES, changes)) problems.push({ path: ['changes'], message: 'must be flag or search' });
  if (changes !== 'search' && (flag === '' || flag.length > CONFIG_LIMITS.idLength))
    problems.push({ path: ['flag'], message: `must be 1 to ${CONFIG_LIMITS.idLength} characters` });
  if (catalog.length > 256) problems.push({ path: ['catalog'], message: 'must be at most 256 characters' });
  const ids = Array.from(
    { length: Number.isInteger(count) && count >= min && count <= max ? count : 0 },
    (_, i) => `${id}-${String.fromCharCode(97 + i)}`,
  );
  const text = (form.get('values') ?? '').trimEnd();
  const given = text === '' ? ids : text.split(/\r?\n/).map((l) => l.trim());
  if (ids.length > 0 && given.length !== ids.length)
    problems.push({ path: ['values'], message: `needs one line per variation: ${ids.length} lines, got ${given.length}` });
  const search = changes === 'search' && text !== '' ? given.map((line, i) => searchSettingsOfLine(line, i, problems)) : [];
  if (problems.length > 0)
    throw new ValidationError(`invalid campaign: ${problems.map((p) => `${p.path[0]} ${p.message}`).join('; ')}`, problems);
  // Even shares in hundredths; the reference takes what rounding leaves.
  const share = Math.floor(10_000 / ids.length) / 100;
  const first = Math.round((100 - share * (ids.length - 1)) * 100) / 100;
  const campaign = {
    id,
    type,
    ...(name !== '' ? { name } : {}),
    variationGroups: [
      {
        id: `${id}-vg`,
        targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
        variations: ids.map((vid, i) => ({
          id: vid,
          reference: i === 0,
          allocation: i === 0 ? first : share,
          modifications:
            changes === 'search'
              ? { type: SEARCH_MODIFICATION_TYPE, value: { ...(catalog !== '' ? { catalog } : {}), ...search[i] } }
              : { type: 'FLAG', value: { [flag]: given[i] } },
        })),
      },
    ],
  };
  try {
    return parseWith(campaignSchema, campaign, 'campaign');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const seen = new Set<string>();
    const details = error.details
      .map((d) => ({ path: [fieldOf(d.path)], message: d.message }))
      .filter((d) => !seen.has(`${d.path[0]} ${d.message}`) && seen.add(`${d.path[0]} ${d.message}`));
    throw new ValidationError(error.message, details);
  }
}

/**
 * One line of search settings: a JSON object checked by the `search` modification's schema
 * (empty: `{}`, the catalog's own settings); problems are pushed at `values`, naming the line.
 */
function searchSettingsOfLine(line: string, i: number, problems: ErrorDetail[]): Record<string, unknown> {
  const at = (message: string) => problems.push({ path: ['values'], message: `line ${i + 1}: ${message}` });
  if (line === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    at('is not JSON; write an object such as {"customRanking": ["popularity:desc"]}');
    return {};
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    at('must be a JSON object such as {"rankingRules": ["words", "customRanking", "bm25"]}');
    return {};
  }
  const parsed = searchModificationSchema.safeParse(value);
  if (!parsed.success)
    for (const issue of parsed.error.issues) at(`${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  return value as Record<string, unknown>;
}

/** The "New campaign" form, with what was given and the problems at their fields. */
export function newCampaignForm(ctx: PageContext, action: string, problems: Map<string, string[]>, given?: URLSearchParams): Html {
  const value = (name: Field, fallback = '') => given?.get(name) ?? fallback;
  const invalid = (name: Field) => (problems.get(name) ? html` aria-invalid="true" aria-describedby="new-campaign-${name}-error"` : '');
  const type = value('type', 'ab');
  const changes = value('changes', 'flag');
  return postForm(
    ctx.session,
    action,
    html`${problems.get('') && html`<p class="error" role="alert">${problems.get('')!.join('; ')}</p>`}
<label class="block" for="new-campaign-id">Campaign id</label><input type="text" id="new-campaign-id" name="id" required maxlength="${CONFIG_LIMITS.idLength}" value="${value('id')}"${invalid('id')}>${fieldError('new-campaign-id', problems.get('id'))}
<label class="block" for="new-campaign-name">Name (optional)</label><input type="text" id="new-campaign-name" name="name" maxlength="256" value="${value('name')}"${invalid('name')}>${fieldError('new-campaign-name', problems.get('name'))}
<label class="block" for="new-campaign-type">Type</label><select id="new-campaign-type" name="type"${invalid('type')}>${CAMPAIGN_TYPES.map(
      (t) => html`<option value="${t}"${t === type ? html` selected` : ''}>${t}</option>`,
    )}</select>${fieldError('new-campaign-type', problems.get('type'))}
<label class="block" for="new-campaign-changes">Variations change</label><select id="new-campaign-changes" name="changes"${invalid('changes')}>${Object.entries(
      CHANGES,
    ).map(
      ([k, label]) => html`<option value="${k}"${k === changes ? html` selected` : ''}>${label}</option>`,
    )}</select>${fieldError('new-campaign-changes', problems.get('changes'))}
<label class="block" for="new-campaign-variations">Variations (<code>&lt;id&gt;-a</code> is the reference; traffic is shared evenly)</label><input type="number" id="new-campaign-variations" name="variations" min="${NEW_CAMPAIGN_VARIATIONS.min}" max="${NEW_CAMPAIGN_VARIATIONS.max}" step="1" value="${value('variations', '2')}"${invalid('variations')}>${fieldError('new-campaign-variations', problems.get('variations'))}
<label class="block" for="new-campaign-flag">Flag key (flag values)</label><input type="text" id="new-campaign-flag" name="flag" maxlength="${CONFIG_LIMITS.idLength}" value="${value('flag')}"${invalid('flag')}>${fieldError('new-campaign-flag', problems.get('flag'))}
<label class="block" for="new-campaign-catalog">Catalog (search settings; empty: every catalog)</label><input type="text" id="new-campaign-catalog" name="catalog" maxlength="256" value="${value('catalog')}"${invalid('catalog')}>${fieldError('new-campaign-catalog', problems.get('catalog'))}
<label class="block" for="new-campaign-values">Value of each variation, one line each: the flag value (empty: the variation's id), or search settings as a JSON object such as <code>{"rankingRules": ["words", "customRanking", "bm25"], "customRanking": ["popularity:desc"]}</code> (empty or <code>{}</code>: the catalog's own settings)</label><textarea id="new-campaign-values" name="values" rows="3"${invalid('values')}>${value('values')}</textarea>${fieldError('new-campaign-values', problems.get('values'))}
<p><button type="submit">Create campaign</button> <span class="muted">Targets everyone (<code>fs_all_users</code>); checked by the same schema as the API; decisions follow at once.</span></p>`,
  );
}
