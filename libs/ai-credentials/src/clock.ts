/** Milliseconds since the epoch; injectable so tests control time instead of sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
