/**
 * Imported first by the entry point: V8 settings that must hold before anything allocates.
 *
 * Allocation-site pretenuring off. V8 watches where surviving objects are allocated and, for a
 * site whose objects often survive, allocates them in the old generation from then on. A server
 * goes through phases: after loading 20,000 nodes in arrays of 1,000 (objects that live for the
 * whole request), the sites the GET path shares with it stayed pretenured, so every GET's
 * short-lived objects went to the old generation, and mark-compacts ran every second or two:
 * 127 µs of CPU per GET instead of 73 µs, measured with 1,500 GETs/s on 8 connections right
 * after the load (scavenges promoted 1.7 MB each, and took 5–14 ms instead of about 1 ms).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
