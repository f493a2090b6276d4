// What a run covered: the catalogued inputs its checks sent (tests/leniencies/, sent on every
// run whatever the seed), and the statuses each operation answered.

export class Coverage {
  private readonly sentIds = new Set<string>();
  private readonly statuses: Record<string, Record<string, number>> = {};

  /** The answer to `request`, which carries this catalogued input: once answered, the input counts as sent. */
  async sending<T>(input: { id: string } | undefined, request: Promise<T>): Promise<T> {
    const answer = await request;
    if (input) this.sentIds.add(input.id);
    return answer;
  }

  /** An answer of `operation` (undefined: a path or method the interface does not define). */
  answered(operation: string | undefined, status: number): void {
    const byStatus = (this.statuses[operation ?? 'other'] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }

  /** The ids of the catalogued inputs sent, and the statuses per operation. */
  snapshot(): { sent: string[]; statuses: Record<string, Record<string, number>> } {
    return {
      sent: [...this.sentIds].sort(),
      statuses: Object.fromEntries(Object.entries(this.statuses).map(([op, s]) => [op, { ...s }])),
    };
  }
}
