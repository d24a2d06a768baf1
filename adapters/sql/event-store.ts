import type { ConversionEvent, EventQuery, EventStore, ExposureQuery, VariationAggregate } from '../../src/storage/events';
import { chunks, logQuery, valuesList, type SqlDriver } from './driver';

/**
 * The per-variation aggregation in one statement: each visitor's first exposure and variation(s)
 * from the activation log, its events of the metric after that exposure (an index seek per
 * visitor on `events_metric`), then one row per variation.
 */
export function aggregateSql(query: ExposureQuery): { sql: string; params: unknown[] } {
  const window: string[] = [];
  const windowParams: unknown[] = [];
  if (query.since !== undefined) {
    window.push('AND timestamp >= ?');
    windowParams.push(query.since);
  }
  if (query.until !== undefined) {
    window.push('AND timestamp < ?');
    windowParams.push(query.until);
  }
  const single = 'x.g = x.g2 AND x.v = x.v2';
  const sql = `
    WITH exposed AS (
      SELECT visitor_id, MIN(timestamp) AS first_at,
             MIN(variation_group_id) AS g, MAX(variation_group_id) AS g2, MIN(variation_id) AS v, MAX(variation_id) AS v2
      FROM activations
      WHERE environment_id = ? AND campaign_id = ? ${window.join(' ')}
      GROUP BY visitor_id
    ), per_visitor AS (
      SELECT CASE WHEN ${single} THEN x.g END AS g, CASE WHEN ${single} THEN x.v END AS v,
             COUNT(e.timestamp) AS hits, COUNT(e.value) AS valued, COALESCE(SUM(e.value), 0) AS total
      FROM exposed x
      LEFT JOIN events e
        ON ${single} AND e.environment_id = ? AND e.event = ? AND e.visitor_id = x.visitor_id
        AND e.timestamp >= x.first_at ${query.until !== undefined ? 'AND e.timestamp < ?' : ''}
      GROUP BY x.visitor_id, x.g, x.g2, x.v, x.v2
    )
    SELECT g, v, COUNT(*) AS exposed, SUM(CASE WHEN hits > 0 THEN 1 ELSE 0 END) AS converted,
           SUM(valued) AS valued, SUM(total) AS value_sum, SUM(total * total) AS value_sum_squares
    FROM per_visitor
    GROUP BY g, v`;
  const params = [query.environmentId, query.campaignId, ...windowParams, query.environmentId, query.event];
  if (query.until !== undefined) params.push(query.until);
  return { sql, params };
}

/** The conversion event log over SQL. */
export class SqlEventStore implements EventStore {
  constructor(private readonly db: SqlDriver) {}

  async record(events: readonly ConversionEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const part of chunks(events, 5, tx)) {
        await tx.exec(
          `INSERT INTO events (environment_id, visitor_id, event, value, timestamp) VALUES ${valuesList(part.length, 5)}`,
          part.flatMap((e) => [e.environmentId, e.visitorId, e.event, e.value, e.timestamp]),
        );
      }
    });
  }

  async list(query: EventQuery): Promise<ConversionEvent[]> {
    const { sql, params } = logQuery(
      'events',
      [
        ['environment_id = ?', query.environmentId],
        ['visitor_id = ?', query.visitorId],
        ['event = ?', query.event],
        ['timestamp >= ?', query.since],
        ['timestamp < ?', query.until],
      ],
      query.limit,
    );
    const rows = await this.db.query(sql, params);
    return rows.map((r) =>
      Object.freeze({
        environmentId: r.environment_id as string,
        visitorId: r.visitor_id as string,
        event: r.event as string,
        value: r.value === null ? null : Number(r.value),
        timestamp: Number(r.timestamp),
      }),
    );
  }

  async aggregate(query: ExposureQuery): Promise<VariationAggregate[]> {
    const { sql, params } = aggregateSql(query);
    const rows = await this.db.query(sql, params);
    return rows.map((r) => ({
      variationGroupId: (r.g as string | null) ?? null,
      variationId: (r.v as string | null) ?? null,
      exposed: Number(r.exposed),
      converted: Number(r.converted),
      valued: Number(r.valued),
      valueSum: Number(r.value_sum),
      valueSumSquares: Number(r.value_sum_squares),
    }));
  }
}
