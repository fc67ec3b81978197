// Compiled from generated/types/index.ts by npm run generate; do not edit. source b064d7a38ab3450fcdd1621998fcf5870f625adf75602c544dd778d3f27ce5d7 output 509e271992f7793925e6230b1e4bdf0e1c30ed24c54ae8be8cb663280b82b0df
export type * from './domain.js';
export type * from './exnode.js';
export type * from './extent.js';
export type * from './link.js';
export type * from './measurement.js';
export type * from './metadata.js';
export type * from './network.js';
export type * from './networkresource.js';
export type * from './node.js';
export type * from './path.js';
export type * from './port.js';
export type * from './reference.js';
export type * from './service.js';
export type * from './topology.js';
