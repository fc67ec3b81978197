// Compiled from generated/client/rest-error.ts by npm run generate; do not edit. source c4e670e4d9077d66d8c4d43de3ee20a24a8e8b53ac436731ab33541cb3da8351 output e315ac4ebf143efc36fbbf04abdaa348e6681879c04c6d540e2f7661db6c271a
import type { ErrorBody, ErrorDetail } from '../rest/contract.js';
/** Any non-success answer. `body` is the service's error body, parsed. */
export declare class TopocatError extends Error {
    readonly status: number;
    readonly body: ErrorBody;
    constructor(status: number, body: ErrorBody);
    /** The reasons, each with the JSON pointer or parameter it is about. */
    get details(): readonly ErrorDetail[];
    get requestId(): string | undefined;
}
