/**
 * Variation-group id → variation id: the sticky assignments of one visitor.
 *
 * @example
 * ```ts
 * const sticky: Assignments = await storage.assignments.get('prod', 'v1');
 * console.log(sticky.vg1); // the variation of group vg1 the visitor keeps, if any
 * ```
 */
export type Assignments = Readonly<Record<string, string>>;

/**
 * The record abkit's stores answer for a visitor with no assignment. A decision knows it at once
 * and looks nothing up in it; another store's empty record works too, at the cost of those
 * lookups. (Telling a record's emptiness otherwise means enumerating its keys, which for a record
 * of many groups, kept by V8 as a dictionary, cost thousands of instructions per decision.)
 */
export const NO_ASSIGNMENTS: Assignments = Object.freeze({});

/**
 * Port: sticky assignments, so that a visitor keeps its variation when allocations change.
 * Keyed by environment and visitor id (or anonymous id).
 *
 * @example
 * ```ts
 * const sticky: AssignmentStore = storage.assignments;
 * await sticky.save('prod', 'v1', { vg1: 'var2' });
 * await sticky.get('prod', 'v1'); // { vg1: 'var2' }
 * await sticky.delete('prod', 'v1'); // e.g. on a data-deletion request
 * ```
 */
export interface AssignmentStore {
  /** The visitor's assignments; an empty object when there are none. */
  get(environmentId: string, visitorId: string): Promise<Assignments>;
  /**
   * {@link get}, synchronously, for a store that answers from memory: a decision then waits for
   * nothing when it writes nothing. Optional; stores that do I/O leave it out.
   */
  getNow?(environmentId: string, visitorId: string): Assignments;
  /** Merges `assignments` into the visitor's (entries for other groups are kept), atomically. */
  save(environmentId: string, visitorId: string, assignments: Assignments): Promise<void>;
  /** Forgets every assignment of a visitor (e.g. on a data-deletion request). */
  delete(environmentId: string, visitorId: string): Promise<void>;
}
