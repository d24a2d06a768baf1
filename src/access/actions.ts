/**
 * The fixed vocabulary of actions an access can be granted. Each remote-control endpoint
 * requires exactly one of them.
 *
 * - `campaigns.read`: read the campaign configuration, one campaign, the panic switch.
 * - `campaigns.write`: replace the configuration, create, replace or delete one campaign.
 * - `panic.write`: switch panic mode on or off.
 * - `activations.read`: read the activation log.
 * - `results.read`: read experiment results (conversions and statistics per variation).
 *
 * @example
 * ```ts
 * await accesses.createAccess({ account: 'acme', name: 'admin', actions: [...ACCESS_ACTIONS] });
 * ACCESS_ACTIONS.includes('panic.write'); // true
 * ```
 */
export const ACCESS_ACTIONS = ['campaigns.read', 'campaigns.write', 'panic.write', 'activations.read', 'results.read'] as const;

/**
 * One action of {@link ACCESS_ACTIONS}.
 *
 * @example
 * ```ts
 * const actions: AccessAction[] = ['campaigns.read', 'activations.read'];
 * await accesses.createAccess({ account: 'acme', name: 'dashboard', actions });
 * ```
 */
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** Whether `value` is a known action. */
export function isAccessAction(value: unknown): value is AccessAction {
  return typeof value === 'string' && (ACCESS_ACTIONS as readonly string[]).includes(value);
}
