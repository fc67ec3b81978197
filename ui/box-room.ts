/**
 * The room inside a container's box (a network's, a domain's), which the skeleton (skeleton.ts)
 * leaves when it sizes boxes and the packing (pack.ts) leaves when it places them: both read it
 * here, so neither imports the other.
 */

/** Padding of a box inside its border (the style's, plus room for its members' labels). */
export const PADDING: Readonly<Record<string, number>> = { networks: 24, domains: 30 };
/** More room at the top of a box that holds boxes: their names are drawn above them. */
export const ABOVE_BOXES = 50;
