/**
 * The decision interface (interfaces.md, Decision interface) as a Web-standard handler.
 *
 * @module
 */
import { z } from 'zod';
import type { DecisionEngine } from '../decision/engine';
import type { DecisionRequest } from '../decision/request';
import { ExperimentService } from '../results/experiments';
import { formatPath, NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import { parseWith } from '../validation';
import { serializeDecision } from '../decision/compile';
import { MAX_EVENT_NAME_LENGTH, MAX_EVENTS_PER_CALL } from '../results/track';
import { simpleView } from '../decision/flags';
import { contextProblems, contextWithinLimits, DECISION_LIMITS, idTooLong } from '../decision/limits';
import { sha256Hex } from '../crypto';
import type { EnvironmentRecord } from '../storage/environments';
import { DEFAULT_MAX_BODY_BYTES, jsonNow, maxBodyBytesOption } from '../body';
import { json, jsonText, respond } from './respond';
import {
  handlerOf,
  requestHasQuery,
  routeTable,
  type ErrorReporting,
  type Handler,
  type RouteContext,
  type Routes,
  type RouteSpec,
} from './router';

// The string's length is checked with the context's other limits (contextSchema); the meta documents it.
const contextValue = z.union([z.string().meta({ maxLength: DECISION_LIMITS.contextValueLength }), z.number(), z.boolean()], {
  error: 'must be a boolean, a number or a string',
});
// The message names the limit; `idTooLong` is the library's own, so both read alike.
const idMax = { error: (issue: { input?: unknown }) => idTooLong((issue.input as string).length) };
const optionalId = z.string().max(DECISION_LIMITS.idLength, idMax).nullable().optional();
/**
 * The context object. Its count and key lengths are checked once its values passed, with the
 * library's own check (a key too long is named by its start only: an error never echoes it whole).
 */
const contextSchema = z
  .record(z.string(), contextValue)
  .superRefine((context, ctx) => {
    const details: ErrorDetail[] = [];
    contextProblems(context, [], details);
    for (const { path, message } of details) ctx.addIssue({ code: 'custom', path: [...path], message });
  })
  .meta({ maxProperties: DECISION_LIMITS.contextKeys, propertyNames: { maxLength: DECISION_LIMITS.contextKeyLength } });

/**
 * Body of `POST /v2/campaigns` and `POST /v2/campaigns/{id}` (interfaces.md, Decision request body). `visitorId` and
 * `anonymousId` are accepted as aliases because the Flagship SDKs send them; `null` means absent.
 *
 * @example
 * ```ts
 * const body = campaignsRequestSchema.parse({ visitor_id: 'v1', context: { plan: 'gold' }, trigger_hit: false });
 * const result = await engine.decide({ visitorId: body.visitor_id!, context: body.context ?? {}, triggerHit: body.trigger_hit });
 * ```
 */
export const campaignsRequestSchema = z
  .looseObject(
    {
      visitor_id: optionalId,
      visitorId: optionalId,
      anonymous_id: optionalId,
      anonymousId: optionalId,
      context: contextSchema.nullable().optional(),
      trigger_hit: z.boolean({ error: 'must be a boolean' }).optional(),
      visitor_consent: z.boolean({ error: 'must be a boolean' }).optional(),
    },
    { error: 'the body must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    const id = body.visitor_id ?? body.visitorId;
    if (typeof id !== 'string' || id === '') {
      ctx.addIssue({ code: 'custom', path: ['visitor_id'], message: 'is required and must be a non-empty string' });
    } else if (body.visitor_id != null && body.visitorId != null && body.visitor_id !== body.visitorId) {
      ctx.addIssue({ code: 'custom', path: ['visitorId'], message: 'differs from visitor_id' });
    }
  });

type CampaignsRequest = z.infer<typeof campaignsRequestSchema>;

const isOptionalId = (value: unknown) => value == null || (typeof value === 'string' && value.length <= DECISION_LIMITS.idLength);

/**
 * The body as {@link campaignsRequestSchema} would return it, when it plainly passes (the shape
 * every SDK sends); `undefined` sends it through the schema, which names any problem.
 *
 * @example
 * ```ts
 * const body = plainCampaignsRequest(value) ?? parseWith(campaignsRequestSchema, value, 'request');
 * ```
 */
export function plainCampaignsRequest(body: unknown): CampaignsRequest | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (
    typeof b.visitor_id !== 'string' ||
    b.visitor_id === '' ||
    b.visitor_id.length > DECISION_LIMITS.idLength ||
    (b.visitorId != null && b.visitorId !== b.visitor_id)
  )
    return undefined;
  if (!isOptionalId(b.anonymous_id) || !isOptionalId(b.anonymousId) || !isOptionalId(b.visitorId)) return undefined;
  if (b.trigger_hit !== undefined && typeof b.trigger_hit !== 'boolean') return undefined;
  if (b.visitor_consent !== undefined && typeof b.visitor_consent !== 'boolean') return undefined;
  const context = b.context;
  if (context != null) {
    if (typeof context !== 'object' || Array.isArray(context) || Object.getPrototypeOf(context) !== Object.prototype) return undefined;
    if (!contextWithinLimits(context as Record<string, unknown>)) return undefined;
  }
  return b as CampaignsRequest;
}

/** A required id: a non-empty string within the id limit. */
const requiredId = () =>
  z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty').max(DECISION_LIMITS.idLength, idMax);
const activationFields = {
  vid: requiredId(),
  vaid: requiredId(),
  caid: requiredId(),
  aid: z.string({ error: 'must be a string' }).max(DECISION_LIMITS.idLength, idMax).nullable().optional(),
};
const activationItemSchema = z.looseObject(activationFields);
const cid = requiredId();

/**
 * Body of `POST /v2/activate` (interfaces.md, Activation).
 *
 * @example
 * ```ts
 * const { cid, vid, caid, vaid, aid } = activationSchema.parse(await request.json());
 * await experiments.activate({ environmentId: cid, visitorId: vid, variationGroupId: caid, variationId: vaid, anonymousId: aid });
 * ```
 */
export const activationSchema = z.looseObject({ cid, ...activationFields }, { error: 'the body must be a JSON object' });

/**
 * Batch form of `POST /v2/activate`: `{ cid, batch: [{ vid, vaid, caid, aid? }] }`.
 *
 * @example
 * ```ts
 * const body = activationBatchSchema.parse({ cid: 'prod', batch: [{ vid: 'v1', caid: 'vg1', vaid: 'var2' }] });
 * await experiments.activate(body.batch.map((a) => ({ environmentId: body.cid, visitorId: a.vid, variationGroupId: a.caid, variationId: a.vaid })));
 * ```
 */
export const activationBatchSchema = z.looseObject({
  cid,
  batch: z
    .array(activationItemSchema, { error: 'must be an array' })
    .min(1, 'must hold at least one activation')
    .max(DECISION_LIMITS.activationsPerCall, `must hold at most ${DECISION_LIMITS.activationsPerCall} activations`),
});

const eventFields = {
  visitor_id: requiredId(),
  event: z
    .string({ error: 'is required and must be a string' })
    .min(1, 'must not be empty')
    .max(MAX_EVENT_NAME_LENGTH, `must be at most ${MAX_EVENT_NAME_LENGTH} characters`),
  value: z.number({ error: 'must be a number or null' }).nullable().optional(),
};
const optionalCid = cid.optional().meta({ description: 'Environment; the default environment when absent' });

/**
 * Body of `POST /v2/events`: one conversion event.
 *
 * @example
 * ```ts
 * const { cid, visitor_id, event, value } = eventSchema.parse({ visitor_id: 'v1', event: 'purchase', value: 42.5 });
 * await experiments.track({ environment: cid, visitorId: visitor_id, event, value });
 * ```
 */
export const eventSchema = z.looseObject({ cid: optionalCid, ...eventFields }, { error: 'the body must be a JSON object' });

/**
 * Batch form of `POST /v2/events`: `{ cid?, batch: [{ visitor_id, event, value? }] }`, at most
 * 1,000 events, recorded all or none.
 *
 * @example
 * ```ts
 * const body = eventBatchSchema.parse({ cid: 'prod', batch: [{ visitor_id: 'v1', event: 'signup' }] });
 * await experiments.track(body.batch.map((e) => ({ environment: body.cid, visitorId: e.visitor_id, event: e.event, value: e.value })));
 * ```
 */
export const eventBatchSchema = z.looseObject({
  cid: optionalCid,
  batch: z
    .array(z.looseObject(eventFields), { error: 'must be an array' })
    .min(1, 'must hold at least one event')
    .max(MAX_EVENTS_PER_CALL, `must hold at most ${MAX_EVENTS_PER_CALL} events`),
});

// A union would report "no option matched"; choosing by the presence of `batch` names the field.
function singleOrBatch<S extends z.ZodType<{ cid?: string }>, B extends z.ZodType<{ cid?: string; batch: unknown[] }>>(
  body: unknown,
  single: S,
  batch: B,
  what: string,
) {
  if (body !== null && typeof body === 'object' && 'batch' in body) {
    const parsed = parseWith(batch, body, what);
    return { batch: true, cid: parsed.cid as z.infer<S>['cid'], items: parsed.batch as z.infer<S>[] };
  }
  const one = parseWith(single, body, what);
  return { batch: false, cid: one.cid as z.infer<S>['cid'], items: [one] };
}

const parseActivation = (body: unknown) => singleOrBatch(body, activationSchema, activationBatchSchema, 'activation');
const parseEvents = (body: unknown) => singleOrBatch(body, eventSchema, eventBatchSchema, 'event');

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Options of {@link createDecisionHandler}.
 *
 * @example
 * ```ts
 * const options: DecisionHandlerOptions = { engine, prefix: '/decision', maxBodyBytes: 64 * 1024 };
 * const handler = createDecisionHandler(options); // serves POST /decision/v2/campaigns
 * ```
 */
export interface DecisionHandlerOptions extends ErrorReporting {
  /** The engine that answers. */
  engine: DecisionEngine;
  /**
   * Records `/v2/activate` and `/v2/events`.
   * @defaultValue an `ExperimentService` over `engine`
   */
  experiments?: ExperimentService;
  /**
   * Path prefix the routes are mounted under.
   * @defaultValue `''` (routes start at `/v2`)
   * @example `'/decision'` serves `/decision/v2/campaigns`
   */
  prefix?: string;
  /**
   * Largest request body accepted, in bytes; a larger one gets 413.
   * @defaultValue `1048576` (1 MiB)
   */
  maxBodyBytes?: number;
}

// Names of library fields on the wire, for activation error messages.
const WIRE: Record<string, string> = {
  environmentId: 'cid',
  visitorId: 'vid',
  variationGroupId: 'caid',
  variationId: 'vaid',
  anonymousId: 'aid',
};

// The library's activation paths ([i, field] for a list, [field] for one) in the body's terms.
function inBodyTerms(details: readonly ErrorDetail[], batch: boolean): ErrorDetail[] {
  return details.map(({ path, message }) => {
    const [first, ...rest] = path;
    const index = typeof first === 'number' ? first : undefined;
    const [name, ...inner] = index === undefined ? path : rest;
    const field = typeof name === 'string' ? (WIRE[name] ?? name) : name;
    const wire = field === undefined ? [] : [field, ...inner];
    return { path: batch && field !== 'cid' ? ['batch', ...(index === undefined ? [] : [index]), ...wire] : wire, message };
  });
}

function messageOf(details: readonly ErrorDetail[]): string {
  return details.map((d) => `${formatPath(d.path)} ${d.message}`).join('; ');
}

// Most decision requests carry no query string: their defaults are then known without parsing the URL.
const NO_QUERY = new URLSearchParams();
function queryOf(context: RouteContext): URLSearchParams {
  return requestHasQuery(context.request) ? context.query : NO_QUERY;
}

// A body (undefined when empty) as a decision request; a body the schema refuses is a 400 naming the problem.
function decisionRequestOf(value: unknown, environment: string | undefined, query: URLSearchParams): DecisionRequest {
  const body = value ?? {};
  return toDecisionRequest(plainCampaignsRequest(body) ?? parseWith(campaignsRequestSchema, body, 'request'), environment, query);
}

function toDecisionRequest(body: CampaignsRequest, environment: string | undefined, query: URLSearchParams): DecisionRequest {
  return {
    visitorId: (body.visitor_id ?? body.visitorId)!,
    anonymousId: body.anonymous_id ?? body.anonymousId ?? null,
    context: body.context ?? {},
    triggerHit: body.trigger_hit,
    visitorConsent: body.visitor_consent,
    environment,
    exposeAllKeys: query !== NO_QUERY && query.get('exposeAllKeys') === 'true',
  };
}

/**
 * The decision interface's route table (interfaces.md, Decision interface); static paths come before the parameters that
 * would also match them.
 */
export const DECISION_ROUTES = [
  { method: 'POST', path: '/v2/campaigns', name: 'campaigns' },
  { method: 'POST', path: '/v2/campaigns/:id', name: 'campaign' },
  { method: 'POST', path: '/v2/activate', name: 'activate' },
  { method: 'POST', path: '/v2/events', name: 'events' },
  { method: 'POST', path: '/v2/:envId/campaigns', name: 'environmentCampaigns' },
  { method: 'POST', path: '/v2/:envId/campaigns/:id', name: 'environmentCampaign' },
  { method: 'POST', path: '/v2/flags', name: 'flags' },
  { method: 'POST', path: '/v2/:envId/flags', name: 'environmentFlags' },
  { method: 'GET', path: '/v2/:envId/bucketing.json', name: 'bucketing' },
] as const satisfies readonly RouteSpec[];

/**
 * The JSON text of a string: the string in quotes when none of its characters needs escaping
 * (visitor ids as SDKs make them), else JSON.stringify's (a call into the runtime costs more
 * than this scan of a short id).
 */
function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/** Answer forms of `/v2/campaigns` (Flagship's `mode`). */
const MODES = ['normal', 'simple', 'full'] as const;

/** `?mode=`: absent is `normal`; anything else unknown is a 400 naming it. */
function modeOf(query: URLSearchParams): (typeof MODES)[number] {
  // URLSearchParams.get checks and converts its argument on every call: skipped without a query.
  const raw = query === NO_QUERY ? null : query.get('mode');
  if (raw === null || raw === '') return 'normal';
  const mode = MODES.find((m) => m === raw);
  if (!mode)
    throw new ValidationError(`mode must be one of ${MODES.join(', ')}`, [
      { path: ['mode'], message: `unknown mode ${JSON.stringify(raw.slice(0, 40))}` },
    ]);
  return mode;
}

/** Whether `extras[]=name` (or `extras=name`) asks for an extra; unknown extras are ignored, as Flagship does. */
function wantsExtra(query: URLSearchParams, name: string): boolean {
  if (query === NO_QUERY) return false;
  return query.getAll('extras[]').includes(name) || query.getAll('extras').includes(name);
}

/** `sendContextEvent` is accepted (abkit records no context events) but must be a boolean. */
function checkSendContextEvent(query: URLSearchParams): void {
  if (query === NO_QUERY) return;
  const raw = query.get('sendContextEvent');
  if (raw !== null && raw !== 'true' && raw !== 'false') {
    throw new ValidationError('sendContextEvent must be true or false', [{ path: ['sendContextEvent'], message: 'must be true or false' }]);
  }
}

/** The bucketing file of one configuration version, serialized and hashed once. */
interface BucketingFile {
  readonly text: string;
  readonly etag: string;
  readonly lastModified: string;
}

const bucketingFiles = new WeakMap<EnvironmentRecord, Promise<BucketingFile>>();

function bucketingFile(record: EnvironmentRecord): Promise<BucketingFile> {
  let file = bucketingFiles.get(record);
  if (!file) {
    const text = JSON.stringify(record.config);
    file = sha256Hex(text).then((hash) => ({
      text,
      etag: `"${hash.slice(0, 32)}"`,
      lastModified: new Date(record.updatedAt).toUTCString(),
    }));
    bucketingFiles.set(record, file);
  }
  return file;
}

/** RFC 9110 §13.1.2: `If-None-Match` wins over `If-Modified-Since`; weak comparison. */
function notModified(request: Request, file: BucketingFile, updatedAt: number): boolean {
  const match = request.headers.get('if-none-match');
  if (match !== null) {
    if (match.trim() === '*') return true;
    return match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag);
  }
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(updatedAt / 1000) * 1000 <= since;
}

/**
 * The decision interface's routes, for composition with others (see {@link createDecisionHandler}).
 *
 * @example
 * ```ts
 * const handler = handlerOf([decisionRoutes({ engine }), tokenRoutes({ tokens })]);
 * const res = await handler(new Request('http://localhost/v2/campaigns', { method: 'POST', body: JSON.stringify({ visitor_id: 'v1' }) }));
 * ```
 */
export function decisionRoutes(options: DecisionHandlerOptions): Routes {
  const { engine, onError } = options;
  if (!engine || typeof engine.decide !== 'function') throw new TypeError('createDecisionHandler: engine must be a DecisionEngine');
  const maxBodyBytes = maxBodyBytesOption(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'createDecisionHandler');
  const experiments = options.experiments ?? new ExperimentService({ engine });

  /** The checks every decision route makes before reading the body: query flags, API key. */
  function authorize(context: RouteContext, query: URLSearchParams): Promise<void> {
    checkSendContextEvent(query);
    return engine.checkApiKey(context.params.envId, context.request.headers.get('x-api-key'));
  }

  // The body as a decision request: at once when it is in memory (no promise), else a promise.
  function bodyOf(context: RouteContext, query: URLSearchParams): DecisionRequest | Promise<DecisionRequest> {
    const value = jsonNow(context.body);
    return value instanceof Promise
      ? value.then((v) => decisionRequestOf(v, context.params.envId, query))
      : decisionRequestOf(value, context.params.envId, query);
  }

  /** The checks and parsing every decision route shares: query flags, API key, body. */
  async function decisionOf(context: RouteContext, query: URLSearchParams): Promise<DecisionRequest> {
    await authorize(context, query);
    return bodyOf(context, query);
  }

  async function campaign(context: RouteContext): Promise<Response> {
    const value = await engine.decideCampaign(context.params.id!, await decisionOf(context, queryOf(context)));
    return value ? respond(serializeDecision(value), 200, JSON_HEADERS) : respond(null, 204);
  }

  // `cid` names the environment of activations and events: unknown is a 400 naming it.
  async function checkCid(request: Request, environmentId: string | undefined): Promise<void> {
    await engine.checkApiKey(environmentId, request.headers.get('x-api-key')).catch((e: unknown) => {
      if (e instanceof NotFoundError)
        throw new ValidationError(`cid "${environmentId ?? engine.defaultEnvironment}" is not a known environment`, [
          { path: ['cid'], message: 'unknown environment' },
        ]);
      throw e;
    });
  }

  async function events({ request, body }: RouteContext): Promise<Response> {
    const parsed = parseEvents(await body.json());
    await checkCid(request, parsed.cid);
    await experiments.track(
      parsed.items.map((e) => ({ environment: parsed.cid, visitorId: e.visitor_id, event: e.event, value: e.value ?? null })),
    );
    return respond(null, 204);
  }

  async function campaigns(context: RouteContext): Promise<Response> {
    const query = queryOf(context);
    const mode = modeOf(query);
    // decisionOf's steps written out: the hot path saves an async frame and the body's promise.
    await authorize(context, query);
    let request = bodyOf(context, query);
    if (request instanceof Promise) request = await request;
    const result = await engine.decide(request);
    // Campaign values come prebuilt with their JSON text: the answer is their texts joined by
    // commas, what comes before the first and after the last glued to those two. One join of n
    // parts builds it flat (a chain of `+=` builds a rope that the length count and the socket
    // write each flatten again; join's cost is per part, so separators are not parts).
    let tail = '';
    if (mode !== 'normal') {
      const simple = simpleView(result.campaigns);
      tail += `"mergedModifications":${JSON.stringify(simple.mergedModifications)},"campaignsVariation":${JSON.stringify(simple.campaignsVariation)},`;
    }
    tail += result.panic ? '"panic":true' : '"panic":false';
    if (wantsExtra(query, 'accountSettings')) {
      const settings = (await engine.configuration(context.params.envId)).config.accountSettings;
      tail += `,"extras":${JSON.stringify({ accountSettings: { enabledXPC: settings?.enabledXPC ?? false, enabled1V1T: settings?.enabled1V1T ?? false } })}`;
    }
    tail += '}';
    if (mode === 'simple') return jsonText(`{${tail}`);
    const head = `{"visitor_id":${jsonString(result.visitorId)},"campaigns":[`;
    const n = result.campaigns.length;
    if (n === 0) return jsonText(`${head}],${tail}`);
    const texts = new Array<string>(n);
    for (let i = 0; i < n; i++) texts[i] = serializeDecision(result.campaigns[i]!);
    texts[0] = head + texts[0]!;
    texts[n - 1] = `${texts[n - 1]!}],${tail}`;
    return jsonText(texts.join(','));
  }

  async function flags(context: RouteContext): Promise<Response> {
    const result = await engine.decideFlags(await decisionOf(context, queryOf(context)));
    const out: Record<string, { value: unknown; metadata: unknown }> = Object.create(null);
    for (const key in result.flags) out[key] = { value: result.flags[key]!.value, metadata: result.flags[key]!.metadata };
    return json(out);
  }

  async function bucketing({ request, params }: RouteContext): Promise<Response> {
    await engine.checkApiKey(params.envId, request.headers.get('x-api-key'));
    const record = await engine.configuration(params.envId);
    const file = await bucketingFile(record);
    // Clients revalidate each time: a configuration change must reach them on their next poll.
    const headers = { etag: file.etag, 'last-modified': file.lastModified, 'cache-control': 'no-cache' };
    if (notModified(request, file, record.updatedAt)) return respond(null, 304, headers);
    return respond(file.text, 200, { ...JSON_HEADERS, ...headers });
  }

  async function activate({ request, body }: RouteContext): Promise<Response> {
    const parsed = parseActivation(await body.json());
    const { cid: environmentId, batch } = parsed;
    await checkCid(request, environmentId);
    const inputs = parsed.items.map((a) => ({
      environmentId,
      visitorId: a.vid,
      variationGroupId: a.caid,
      variationId: a.vaid,
      anonymousId: a.aid ?? null,
    }));
    try {
      await experiments.activate(batch ? inputs : inputs[0]!);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      const details = inBodyTerms(e.details, batch);
      throw new ValidationError(messageOf(details), details);
    }
    return respond(null, 204);
  }

  const handlers = {
    campaigns,
    campaign,
    environmentCampaigns: campaigns,
    environmentCampaign: campaign,
    activate,
    events,
    flags,
    environmentFlags: flags,
    bucketing,
  };
  return routeTable(DECISION_ROUTES, handlers, {
    prefix: options.prefix,
    maxBodyBytes,
    onError,
    // interfaces.md, Decision errors: the decision interface answers 400 (not 404) for what the request names wrongly.
    // The bucketing file is a document: an unknown environment is its 404.
    render: (error, route) =>
      json({ message: error.message }, error instanceof NotFoundError && route.name !== 'bucketing' ? 400 : error.status),
  });
}

/**
 * Creates the handler of the decision interface:
 * `POST /v2/campaigns`, `POST /v2/campaigns/{id}`, `POST /v2/activate` (default environment,
 * or `cid` for activations) and `POST /v2/{envId}/campaigns[/{id}]` (a named environment, the URL
 * the Flagship SDKs build). Errors are `{ "message": string }` with status 400 for bad input,
 * 401 for a missing or wrong `x-api-key`, 400 for an unknown environment (interfaces.md, Decision errors),
 * 404 for an unknown path, 405 for a
 * wrong method, 413 for a body over `maxBodyBytes`, and 500 (without details) otherwise.
 *
 * @example
 * ```ts
 * const handler = createDecisionHandler({ engine });
 * const res = await handler(new Request('http://x/v2/campaigns', {
 *   method: 'POST', body: JSON.stringify({ visitor_id: 'v1', context: {} }),
 * }));
 * ```
 */
export function createDecisionHandler(options: DecisionHandlerOptions): Handler {
  return handlerOf([decisionRoutes(options)]);
}
