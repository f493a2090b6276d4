// The arithmetic of the figures: medians, rounding, a signed share.

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
export const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;
/** A cost as a signed percentage: 0.173 is "+17.3%". */
export const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** Milliseconds as the bench's table writes seconds: "1.72 s". */
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
