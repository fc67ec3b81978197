import type { KindDescriptor } from '../../generated/rest/handler.js';
import { canonicalSchemaBase } from '../../generated/rest/kinds.js';
import type { ChangeEvent } from '../storage/contract/events.js';
import { DATA_COLLECTION, type MeasurementStore } from '../storage/measurements/store.js';
import type { OutsideCollection } from '../subscriptions/hub.js';

/**
 * The data points of a series as the query language and subscriptions see them: `ts` (a column)
 * and `value`, compared as a number when the query's text is one (`value=gt=5`).
 */
export const dataKind: KindDescriptor = {
  name: 'Data',
  slug: 'data',
  collection: DATA_COLLECTION,
  schemaId: `${canonicalSchemaBase}/data`,
  closed: false,
  indexes: [],
  embeds: {},
  fields: { value: { type: 'number', arrays: [] } },
  validate: (value) => ({ valid: true, value }),
};

/**
 * Subscribers of `data` (`/subscribe/data/<mid>`, or `{"resourceType": "data", "query": {"id":
 * <mid>}}` as dlt-web sends it) and event streams of `GET /data/<mid>` receive what UNIS
 * published for a POST of data (periscope-ps/unis `datahandler.py`): `{"<mid>": [points]}`,
 * the points the batch stored, in `ts` order, in frames whose `headers.collection` is
 * `data/<mid>`.
 */
export function dataPublication(store: MeasurementStore): OutsideCollection {
  return {
    kind: dataKind,
    frameCollection: (mid) => `${DATA_COLLECTION}/${mid}`,
    async texts(events: readonly ChangeEvent[]) {
      const points = await store.published(events);
      const texts = new Map<number, string>();
      for (const event of events) {
        const docs = points.get(event.event);
        if (docs) texts.set(event.event, `{${JSON.stringify(event.id)}:[${docs.join(',')}]}`);
      }
      return texts;
    },
  };
}
