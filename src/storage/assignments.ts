/** Variation-group id → variation id: the sticky assignments of one visitor. */
export type Assignments = Readonly<Record<string, string>>;

/**
 * Port: sticky assignments, so that a visitor keeps its variation when allocations change.
 * Keyed by environment and visitor id (or anonymous id).
 */
export interface AssignmentStore {
  /** The visitor's assignments; an empty object when there are none. */
  get(environmentId: string, visitorId: string): Promise<Assignments>;
  /** Merges `assignments` into the visitor's (entries for other groups are kept), atomically. */
  save(environmentId: string, visitorId: string, assignments: Assignments): Promise<void>;
  /** Forgets every assignment of a visitor (e.g. on a data-deletion request). */
  delete(environmentId: string, visitorId: string): Promise<void>;
}
