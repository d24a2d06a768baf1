/**
 * What `abkit serve` prints at start (to stderr, so that stdout stays JSON log lines): its URL
 * and one example request per interface, with placeholders where a secret would go.
 *
 * @module
 */

/** The parts of a bootstrap file the banner shows. */
interface BootstrapView {
  accesses?: { account: string }[];
  catalogs?: unknown[];
}

/**
 * The start banner's lines.
 *
 * @example
 * ```ts
 * for (const line of bannerLines('http://127.0.0.1:8080', { bootstrapPath: 'b.json', bootstrap: {}, defaultEnvironment: 'prod', storage: 'memory' })) console.error(line);
 * ```
 */
export function bannerLines(
  base: string,
  info: {
    bootstrapPath: string | undefined;
    bootstrap: unknown;
    defaultEnvironment: string | undefined;
    storage: string;
    /** The names of the admin keys (`ABKIT_ADMIN_KEY`); none: the admin API is off. */
    adminActors?: readonly string[];
    /** True when this start found the storage empty and created the account and environment "default". */
    createdDefault?: boolean;
  },
): string[] {
  const lines = [`abkit serving on ${base} (storage: ${info.storage}${info.bootstrapPath ? `, bootstrap: ${info.bootstrapPath}` : ''})`];
  if (info.createdDefault)
    lines.push(
      'Empty storage and no bootstrap file: created account "default" with environment "default" (no campaigns yet; give campaigns with --bootstrap <file>, see docs/bootstrap.md).',
    );
  lines.push('Try:');
  lines.push(
    `  curl -s -XPOST ${base}/v2/campaigns -H 'content-type: application/json' -d '{"visitor_id":"v1","context":{"plan":"gold"}}'`,
  );
  lines.push(`  curl -s ${base}/metrics | grep abkit_decisions_total`);
  const b = (info.bootstrap ?? {}) as BootstrapView;
  const from = info.bootstrapPath ?? 'the bootstrap file';
  const access = b.accesses?.[0];
  if (access) {
    // Never the secrets themselves (they end up in terminals and log files): where to find them.
    lines.push(`  (CLIENT_ID and CLIENT_SECRET: accesses[0].clientId and .clientSecret in ${from})`);
    lines.push(
      `  curl -s -XPOST ${base}/${access.account}/token -H 'content-type: application/json' -d '{"grant_type":"client_credentials","scope":"*","client_id":"<CLIENT_ID>","client_secret":"<CLIENT_SECRET>"}'`,
    );
    lines.push(`  curl -s '${base}/token?access_token=<ACCESS_TOKEN>'`);
    if (info.defaultEnvironment)
      lines.push(
        `  curl -s ${base}/v1/accounts/${access.account}/environments/${info.defaultEnvironment}/configuration -H 'authorization: Bearer <ACCESS_TOKEN>'`,
      );
  }
  if (b.catalogs?.[0]) {
    const item =
      '{"id":"sku-1","is_recommendable":true,"name":"Demo phone","absolute_link":null,"img_link":null,"price":199.99,"categories_ids":["phones"],"color":"black"}';
    lines.push(
      `  curl -sg '${base}/search?text=galaxy&filters[brand][]=Samsung&filters[price][0][operator]=%3C&filters[price][0][value]=500&sort[]=price:asc&hitsPerPage=3'`,
    );
    lines.push(`  curl -s '${base}/autocomplete?query=gala&hits_per_page=5'`);
    lines.push(`  (CATALOG_API_KEY: catalogs[0].catalogApiKey in ${from})`);
    lines.push(
      `  curl -s -XPUT ${base}/indexes/catalog/sku-1 -H 'authorization: Bearer <CATALOG_API_KEY>' -H 'content-type: application/json' -d '${item}'`,
    );
    lines.push(`  curl -s -XPOST ${base}/indexes/catalog/sync -H 'authorization: Bearer <CATALOG_API_KEY>'   # make it searchable now`);
  }
  const actors = info.adminActors ?? [];
  if (actors.length > 0) {
    // The names only: the keys are the operator's, in ABKIT_ADMIN_KEY.
    lines.push(`Admin API on ${base}/admin/v1 (admin keys: ${actors.join(', ')}):`);
    lines.push(`  curl -s ${base}/admin/v1/accounts -H 'authorization: Bearer <ABKIT_ADMIN_KEY>'`);
  } else {
    lines.push('Admin API off: set ABKIT_ADMIN_KEY to a key of 32+ characters to turn it on (abkit admin-key prints a fresh one).');
  }
  return lines;
}
