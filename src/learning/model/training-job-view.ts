import { toIso } from '../../common/clock.js';
import type { TrainingJobView } from './learning.schemas.js';
import type { TrainingJob } from './training-job.js';

export function toJobView(
  job: Pick<TrainingJob, 'id' | 'modelId' | 'reason' | 'force' | 'requestedAt'> & { status?: TrainingJob['status'] },
): TrainingJobView {
  return {
    jobId: job.id,
    modelId: job.modelId,
    status: job.status ?? 'queued',
    reason: job.reason,
    force: job.force,
    requestedAt: toIso(job.requestedAt),
  };
}
