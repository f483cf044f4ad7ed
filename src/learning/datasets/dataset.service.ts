import { StringDecoder } from 'node:string_decoder';
import { toIso, type Clock } from '../../common/clock.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import type { DatasetView } from './dataset.schemas.js';
import type { DatasetStore } from './dataset.store.js';
import { resolveSettings } from '../model/model-config.js';
import type { ModelLookup } from '../ports/model-registry.js';
import type { JobFactory, JobQueue } from '../ports/training-queue.js';
import { LetorParseError, LetorParser } from '../../ranker/index.js';
import { toJobView } from '../model/training-job-view.js';

/** Largest LETOR upload: the whole text is kept (as the dataset row) and parsed by the worker. */
export const DATASET_MAX_BYTES = 50 * 1024 * 1024;

/** What an upload needs: the model it belongs to, where it is kept, and the training queue (ports filled by training/). */
export interface DatasetServiceDependencies {
  models: ModelLookup;
  datasets: Pick<DatasetStore, 'save'>;
  jobs: JobQueue;
  training: JobFactory;
  clock: Clock;
  /** Largest upload; DATASET_MAX_BYTES unless a test sets a smaller one. */
  maxBytes?: number;
}

/**
 * Uploaded LETOR / SVMlight training sets for rankers. The body is parsed as it streams in,
 * so a malformed line is refused with its number before the rest is read, and a body over
 * the limit is refused once the limit is crossed.
 */
export class DatasetService {
  private readonly maxBytes: number;

  constructor(private readonly deps: DatasetServiceDependencies) {
    this.maxBytes = deps.maxBytes ?? DATASET_MAX_BYTES;
  }

  async upload(modelId: string, body: AsyncIterable<Buffer | string>): Promise<DatasetView> {
    const model = await this.deps.models.get(modelId);
    if (!model) throw new NotFoundError(`model ${modelId} not found`);
    if (model.type !== 'ranker') throw new ConflictError(`model ${modelId} is a ${model.type}; datasets are uploaded to rankers`);
    const settings = resolveSettings(model.type, model.config);
    if (settings.kind !== 'ranker' || settings.trainingData !== 'dataset') {
      throw new ConflictError(
        `ranker ${modelId} trains from feedback; register a ranker with config.trainingData "dataset" to train from a file`,
      );
    }
    const parser = new LetorParser({ requireQid: true, missing: settings.missing });
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    let bytes = 0;
    let summary: { rows: number; queries: number; features: number };
    try {
      for await (const chunk of body) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        bytes += buffer.length;
        if (bytes > this.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `dataset is larger than ${this.maxBytes} bytes`);
        const text = decoder.write(buffer);
        parser.pushChunk(text);
        parts.push(text);
      }
      const tail = decoder.end();
      parser.pushChunk(tail);
      parts.push(tail);
      summary = parser.summarize();
    } catch (error) {
      if (error instanceof LetorParseError) {
        throw new ValidationError(`body line ${error.line}: ${error.message.replace(/^line \d+: /, '')}`, [
          { path: `/line/${error.line}`, message: error.message, in: 'body' },
        ]);
      }
      throw error;
    }
    if (summary.queries < 2) throw ValidationError.field('/', `needs at least 2 queries (qid:), found ${summary.queries}`);
    const uploadedAt = this.deps.clock.now();
    await this.deps.datasets.save({ modelId, format: 'letor', content: parts.join(''), bytes, ...summary, uploadedAt });
    const job = this.deps.training.newJob(modelId, 'dataset');
    const queued = (await this.deps.jobs.enqueue(job)) === 'queued';
    return { modelId, format: 'letor', bytes, ...summary, uploadedAt: toIso(uploadedAt), training: queued ? toJobView(job) : null };
  }
}
