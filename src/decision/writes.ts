/**
 * What one decision writes: the visitor's new sticky assignments and its activations, in the
 * form each kind of storage takes.
 *
 * @module
 */
import type { Activation } from '../storage/activations';
import type { Assignments } from '../storage/assignments';
import type { DecidedWrite, DecisionWrite } from '../storage/storage';
import type { Assigned } from './compile';

/**
 * Which decided campaigns become the visitor's own assignments: every one not forced whose
 * variation differs from what the visitor has stored. `true` or `false` when it is the same for
 * all, else one flag per campaign. When the decision read the visitor's own assignments only
 * (`inherited` false), that is every one the hash gave: a stored one that still exists was kept
 * (sticky), so no lookup per campaign is needed.
 */
export function assignedAnew(assigned: readonly Assigned[], own: Assignments, inherited: boolean): boolean | boolean[] {
  let first = false;
  let flags: boolean[] | undefined;
  for (let i = 0; i < assigned.length; i++) {
    const a = assigned[i]!;
    const keep = inherited ? a.source !== 'forced' && own[a.variationGroupId] !== a.variationId : a.source === 'hash';
    if (flags) flags[i] = keep;
    else if (i === 0) first = keep;
    else if (keep !== first) {
      flags = new Array<boolean>(assigned.length).fill(first, 0, i);
      flags[i] = keep;
    }
  }
  return flags ?? first;
}

/** The record form of a decision's writes, for storages without `writeDecisionNow`. */
export function decisionWrite(write: DecidedWrite): DecisionWrite {
  const { decided, assign, activatedAt } = write;
  let assignments: Record<string, string> | undefined;
  if (assign !== false) {
    for (let i = 0; i < decided.length; i++) {
      const d = decided[i]!;
      if (assign === true || assign[i]) (assignments ??= {})[d.variationGroupId] = d.variationId;
    }
  }
  let activations: Activation[] | undefined;
  if (activatedAt !== null) {
    activations = decided.map((d) => ({
      environmentId: write.environmentId,
      visitorId: write.visitorId,
      anonymousId: write.anonymousId,
      campaignId: d.campaignId,
      variationGroupId: d.variationGroupId,
      variationId: d.variationId,
      timestamp: activatedAt,
    }));
  }
  return {
    environmentId: write.environmentId,
    visitorId: write.visitorId,
    assignments: assignments && Object.freeze(assignments),
    activations,
  };
}
