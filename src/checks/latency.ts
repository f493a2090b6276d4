// How long the target took to answer, per operation (run.network.latency): an observation for
// staging far away, never a verdict.

/** The answers' times of one operation: how many, the median and the 95th percentile (nearest rank), in ms. */
export interface OperationLatency {
  answers: number;
  medianMs: number;
  p95Ms: number;
}

export class Latency {
  private readonly times = new Map<string, number[]>();

  /** An answer of `operation` (undefined: a path or method the interface does not define) after `ms`. */
  answered(operation: string | undefined, ms: number): void {
    const key = operation ?? 'other';
    const list = this.times.get(key) ?? [];
    this.times.set(key, list);
    list.push(ms);
  }

  snapshot(): Record<string, OperationLatency> {
    const rank = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
    return Object.fromEntries(
      [...this.times].map(([op, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return [op, { answers: sorted.length, medianMs: rank(sorted, 0.5), p95Ms: rank(sorted, 0.95) }];
      }),
    );
  }
}
