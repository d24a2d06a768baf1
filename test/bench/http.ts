/**
 * `npm run bench -- http`: `abkit serve` (the compiled command, in its own process) against a
 * bare node:http server answering the same bytes, under wrk (Debian's; installed with apt-get
 * when missing). `abkit serve` writes the responses of one event-loop turn together
 * (`ABKIT_COALESCE_WRITES`), so a second bare server that does the same is measured too: the
 * ratio to it shows what abkit costs beyond that technique. Each scenario alternates bare /
 * coalesced bare / abkit 3 times (wrk -t1 -c32, 5 s) and reports the medians of requests per
 * second, the ratios, and the median p99 latency, with the load average when each scenario ends. BENCH_SECONDS (5) and BENCH_ROUNDS (3) change the run length
 * and the number of alternated rounds; BENCH_ONLY runs only the scenarios whose name contains it
 * (`BENCH_ONLY='trigger_hit false'`).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { POSTGRES_URL, postgresAvailable, dropSchema, testSchema } from '../helpers/postgres';
import { hundredCampaigns } from './decision';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = mkdtempSync(join(tmpdir(), 'abkit-bench-http-'));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONTEXT = { plan: 'gold', page: 'shop/cart', visits: 7, cart: 120.5, appVersion: '2.3.1', country: 'fr' };

function ensureWrk(): void {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  console.log('wrk is missing: installing it with apt-get');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) =>
    execFileSync(sudo[0] ?? args[0]!, [...sudo.slice(1), ...(sudo.length ? args : args.slice(1))], { stdio: 'inherit' });
  run(['apt-get', 'install', '-y', 'wrk']);
}

interface WrkResult {
  rps: number;
  p99ms: number;
}

function wrk(url: string, script?: string): WrkResult {
  const args = ['-t1', '-c32', `-d${SECONDS}s`, '--latency', ...(script ? ['-s', script] : []), url];
  const out = execFileSync('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const m = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99ms = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN;
  if (!(rps > 0)) throw new Error(`wrk gave no rate:\n${out}`);
  return { rps, p99ms };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function waitFor(child: ChildProcess, pattern: RegExp, stream: 'stdout' | 'stderr'): Promise<string> {
  let text = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${text}`)), 120_000);
    child[stream]!.on('data', (c: Buffer) => {
      text += c.toString();
      const m = pattern.exec(text);
      if (m) {
        clearTimeout(timer);
        resolveStart(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${text}`)));
  });
}

/** `abkit serve` from dist/ with a bootstrap of 20 campaigns and the demo catalog. */
async function startAbkit(storage: string): Promise<{ url: string; child: ChildProcess }> {
  const campaigns = hundredCampaigns().campaigns.slice(0, 20);
  const demo = JSON.parse(readFileSync(join(ROOT, 'examples/demo/bootstrap.json'), 'utf8'));
  const bootstrap = {
    accounts: [{ id: 'demo', environments: [{ id: 'prod', default: true, bucketing: { campaigns } }] }],
    accesses: demo.accesses,
    catalogs: [{ ...demo.catalogs[0], itemsFile: join(ROOT, 'examples/demo/products.json') }],
  };
  const file = join(DIR, 'bootstrap.json');
  writeFileSync(file, JSON.stringify(bootstrap));
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'serve', '--port', '0', '--bootstrap', file, '--storage', storage], {
    env: { ...process.env, ABKIT_BOOTSTRAP_ABSOLUTE_PATHS: 'allow', ABKIT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await waitFor(child, /serving on (http:\/\/[\d.]+:\d+)/, 'stderr');
  return { url, child };
}

/**
 * A bare node:http server: reads the body, answers `bytes` with a Content-Length; with
 * `coalesce`, writes the answers of one event-loop turn together at its end, as `abkit serve` does.
 */
async function startBare(bytes: Buffer, contentType: string, coalesce: boolean): Promise<{ url: string; child: ChildProcess }> {
  const file = join(DIR, 'bare-body');
  writeFileSync(file, bytes);
  const source = `
    const { createServer } = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const answer = (res) => { res.writeHead(200, { 'content-type': ${JSON.stringify(contentType)}, 'content-length': body.length }); res.end(body); };
    let turn = [];
    const flush = () => { const batch = turn; turn = []; for (const res of batch) answer(res); };
    const server = createServer((req, res) => {
      req.on('data', () => {});
      req.on('end', () => ${coalesce ? '{ if (turn.push(res) === 1) setImmediate(flush); }' : 'answer(res)'});
    });
    server.listen(0, '127.0.0.1', () => console.log('bare on http://127.0.0.1:' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await waitFor(child, /bare on (http:\/\/[\d.]+:\d+)/, 'stdout');
  return { url, child };
}

function luaPost(name: string, path: string, body: string, uniqueVisitors: boolean): string {
  const file = join(DIR, `${name}.lua`);
  const lua = uniqueVisitors
    ? `counter = 0
request = function()
  counter = counter + 1
  local body = '{"visitor_id":"v' .. counter .. '-' .. math.random(1000000000) .. '",' .. ${JSON.stringify(body.slice(1))}
  return wrk.format("POST", ${JSON.stringify(path)}, { ["content-type"] = "application/json" }, body)
end`
    : `wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.body = ${JSON.stringify(JSON.stringify(JSON.parse(body)))}`;
  writeFileSync(file, lua);
  return file;
}

/** One request on a connection of its own (fetch would reuse one the server has since closed). */
function ask(url: string, method: string, body?: string): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  return new Promise((resolveAsk, reject) => {
    const req = httpRequest(url, { method, headers: { 'content-type': 'application/json', connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolveAsk({
          status: res.statusCode!,
          contentType: String(res.headers['content-type'] ?? 'application/json'),
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Scenario {
  name: string;
  abkit: string;
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  uniqueVisitors?: boolean;
  headers?: Record<string, string>;
}

export interface HttpRow {
  name: string;
  bareRps: number;
  /** The bare server that writes one turn's answers together. */
  coalescedBareRps: number;
  abkitRps: number;
  ratio: number;
  /** abkit ÷ the coalesced bare server. */
  coalescedRatio: number;
  bareP99: number;
  abkitP99: number;
}

const ONLY = process.env.BENCH_ONLY;
const wanted = (name: string) => ONLY === undefined || name.includes(ONLY);

async function run(s: Scenario): Promise<HttpRow | undefined> {
  if (!wanted(s.name)) return undefined;
  const sample = await ask(`${s.abkit}${s.path}`, s.method, s.body);
  if (sample.status !== 200) throw new Error(`${s.name}: abkit answered ${sample.status}: ${sample.bytes.toString()}`);
  const bare = await startBare(sample.bytes, sample.contentType, false);
  const coalesced = await startBare(sample.bytes, sample.contentType, true);
  try {
    const script = s.method === 'POST' ? luaPost(s.name.replace(/\W+/g, '-'), s.path, s.body!, s.uniqueVisitors ?? false) : undefined;
    const urls = [bare.url, coalesced.url, s.abkit];
    // Warm all three (JIT, caches), then alternate.
    for (const url of urls) wrk(`${url}${s.path}`, script);
    const runs: WrkResult[][] = [[], [], []];
    for (let i = 0; i < ROUNDS; i++) urls.forEach((url, k) => runs[k]!.push(wrk(`${url}${s.path}`, script)));
    const [bares, coalescedBares, abkits] = runs as [WrkResult[], WrkResult[], WrkResult[]];
    const rps = (rs: WrkResult[]) => median(rs.map((r) => r.rps));
    const row: HttpRow = {
      name: s.name,
      bareRps: rps(bares),
      coalescedBareRps: rps(coalescedBares),
      abkitRps: rps(abkits),
      ratio: rps(abkits) / rps(bares),
      coalescedRatio: rps(abkits) / rps(coalescedBares),
      bareP99: median(bares.map((r) => r.p99ms)),
      abkitP99: median(abkits.map((r) => r.p99ms)),
    };
    const all = (rs: WrkResult[]) => rs.map((r) => Math.round(r.rps)).join('/');
    console.log(
      `${s.name.padEnd(62)} load ${loadavg()[0]!.toFixed(1)} | bare ${Math.round(row.bareRps).toString().padStart(7)} req/s p99 ${row.bareP99.toFixed(2).padStart(7)} ms | coalesced bare ${Math.round(row.coalescedBareRps).toString().padStart(7)} req/s | abkit ${Math.round(row.abkitRps).toString().padStart(7)} req/s p99 ${row.abkitP99.toFixed(2).padStart(7)} ms | ${row.ratio.toFixed(3)} × bare, ${row.coalescedRatio.toFixed(3)} × coalesced bare   (runs: bare ${all(bares)}, coalesced ${all(coalescedBares)}, abkit ${all(abkits)})`,
    );
    return row;
  } finally {
    bare.child.kill();
    coalesced.child.kill();
  }
}

export async function benchHttp(): Promise<HttpRow[]> {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  ensureWrk();
  console.log(
    `\n## HTTP: abkit serve vs bare node:http answering the same bytes (wrk -t1 -c32 -d${SECONDS}s, ${ROUNDS} alternated rounds, medians)`,
  );
  const rows: HttpRow[] = [];
  const push = (row: HttpRow | undefined) => row && rows.push(row);
  const decision = JSON.stringify({ visitor_id: 'v1', context: CONTEXT, trigger_hit: false });
  const written = JSON.stringify({ visitor_id: 'v1', context: CONTEXT });
  const memory = await startAbkit('memory');
  try {
    push(
      await run({
        name: 'POST /v2/campaigns, 20 campaigns, trigger_hit false (memory)',
        abkit: memory.url,
        path: '/v2/campaigns',
        method: 'POST',
        body: decision,
      }),
    );
    push(
      await run({
        name: 'POST /v2/campaigns, 20 campaigns, new visitor, writes (memory)',
        abkit: memory.url,
        path: '/v2/campaigns',
        method: 'POST',
        body: written,
        uniqueVisitors: true,
      }),
    );
    push(
      await run({
        name: 'GET /search with filters and facets',
        abkit: memory.url,
        path: '/search?text=galaxy&filters[brand][]=Samsung&filters[price][0][operator]=%3C&filters[price][0][value]=900&hitsPerPage=10',
        method: 'GET',
      }),
    );
    const issued = await ask(
      `${memory.url}/demo/token`,
      'POST',
      JSON.stringify({
        grant_type: 'client_credentials',
        scope: '*',
        client_id: 'demo-admin-client',
        client_secret: 'demo-admin-secret-for-development-only-0001',
      }),
    );
    const { access_token } = JSON.parse(issued.bytes.toString()) as { access_token: string };
    push(
      await run({
        name: 'GET /token check',
        abkit: memory.url,
        path: `/token?access_token=${encodeURIComponent(access_token)}`,
        method: 'GET',
      }),
    );
  } finally {
    memory.child.kill();
  }
  const sqliteName = 'POST /v2/campaigns, new visitor, writes (SQLite; 1 read + 1 transaction)';
  const postgresName = 'POST /v2/campaigns, new visitor, writes (PostgreSQL; 2 round trips)';
  if (!wanted(sqliteName) && !wanted(postgresName)) return rows;
  const sqlite = await startAbkit(`sqlite:${join(DIR, 'abkit.db')}`);
  try {
    push(await run({ name: sqliteName, abkit: sqlite.url, path: '/v2/campaigns', method: 'POST', body: written, uniqueVisitors: true }));
  } finally {
    sqlite.child.kill();
  }
  if (await postgresAvailable()) {
    const schema = testSchema('benchhttp');
    const pg = await startAbkit(`${POSTGRES_URL}?schema=${schema}`);
    try {
      push(await run({ name: postgresName, abkit: pg.url, path: '/v2/campaigns', method: 'POST', body: written, uniqueVisitors: true }));
    } finally {
      pg.child.kill();
      await new Promise((r) => setTimeout(r, 500));
      await dropSchema(schema);
    }
  } else console.log('PostgreSQL unreachable: its scenario is skipped');
  return rows;
}
