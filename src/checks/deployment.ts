// What a gateway in front of the service answered itself (its 4xx pages): findings about the
// deployment, not the service's, kept apart from every rule.
import { answeredByFront, urlOf, type ApiResponse } from '../wire/requests.js';
import type { DeploymentFinding } from '../data/generated/report-types.js';

export class DeploymentAnswers {
  /** By what answered, in the order first seen. */
  private readonly front = new Map<string, DeploymentFinding>();

  record(res: ApiResponse): void {
    if (res.status < 400 || res.infrastructure === undefined) return;
    const seen = this.front.get(res.infrastructure);
    if (seen) seen.answers++;
    else if (answeredByFront(res)) {
      const { pathname, search } = urlOf(res.request.url);
      this.front.set(res.infrastructure, {
        answer: res.infrastructure,
        request: `${res.request.method} ${pathname}${search}`,
        answers: 1,
      });
    }
  }

  findings(): DeploymentFinding[] {
    return [...this.front.values()].map((d) => ({ ...d }));
  }
}
