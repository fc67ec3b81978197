import type { Row } from '../contract/rows.js';

// What a series is: its registration, its row and the rule of its expiry, which every part of
// the measurement store (registry.ts, appends.ts, point-reads.ts) shares.

/** The collection name of data points in the event log and in subscriptions (UNIS's `data/<mid>`). */
export const DATA_COLLECTION = 'data';

/** What `POST /events` registers for a series. */
export interface SeriesRegistration {
  readonly mid: string;
  readonly metadataUrl: string;
  /** The most points kept; the oldest go first. */
  readonly collectionSize: number;
  /** Seconds a point lives after its `ts`; 0: for ever. */
  readonly ttl: number;
  /** The metadata's `parameters.datumSchema` when the series was registered. */
  readonly datumSchema: string | null;
}

export interface Series extends SeriesRegistration {
  /** Points stored now (expired ones included until they are pruned). */
  readonly points: number;
  /** When it was registered, µs. */
  readonly ts: number;
}

/** A series' row as the database answers it (PostgreSQL's bigints come as strings). */
export interface SeriesRow extends Row {
  mid: string;
  metadata_url: string;
  collection_size: number | string;
  ttl: number | string;
  datum_schema: string | null;
  points: number | string;
  ts: number | string;
}

export function seriesOf(row: SeriesRow): Series {
  return {
    mid: row.mid,
    metadataUrl: row.metadata_url,
    collectionSize: Number(row.collection_size),
    ttl: Number(row.ttl),
    datumSchema: row.datum_schema,
    points: Number(row.points),
    ts: Number(row.ts),
  };
}

/** The oldest `ts` still alive at `now`, or undefined when points never expire. */
export function expiryCutoff(ttl: number, now: number): number | undefined {
  return ttl > 0 ? now - ttl * 1e6 : undefined;
}
