import { buildSerializedModel, type FittedParts } from './build-serialized-model.js';
import { fitCascade, fitSdbn } from './cascade/cascade.js';
import { resolveConfig } from './fit-config.js';
import { fitCoec, fitCtr } from './ctr/ctr.js';
import { fitDbn } from './cascade/dbn.js';
import { countLog, encodeSessions, type EncodedLog, type LogCounts } from './sessions/encode.js';
import { restoreClickModel } from './model.js';
import { fitPbm } from './position/pbm.js';
import type { ClickModel, ClickModelAlgorithm, ClickModelConfig, ResolvedConfig, SearchSession } from './types.js';
import { fitUbm } from './position/ubm.js';

type Fitter = (log: EncodedLog, counts: LogCounts, config: ResolvedConfig) => FittedParts;

const FITTERS: Record<ClickModelAlgorithm, Fitter> = {
  ctr: fitCtr,
  coec: fitCoec,
  pbm: fitPbm,
  cascade: fitCascade,
  ubm: fitUbm,
  dbn: fitDbn,
  sdbn: fitSdbn,
};

function isEncodedLog(input: readonly SearchSession[] | EncodedLog): input is EncodedLog {
  return !Array.isArray(input) && (input as EncodedLog).pairs instanceof Int32Array;
}

/**
 * Fits the configured click model. Accepts raw sessions or a log already encoded with
 * `encodeSessions` / `createSessionEncoder` (lets a caller encode once and fit several
 * algorithms, or stream sessions in). Synchronous and allocation-bounded: meant to run
 * inside a worker thread.
 */
export function fitClickModel(input: readonly SearchSession[] | EncodedLog, config: ClickModelConfig): ClickModel {
  let log: EncodedLog;
  let resolved: ResolvedConfig;
  if (isEncodedLog(input)) {
    if (config.maxDepth !== undefined && config.maxDepth !== input.depth) {
      throw new RangeError(`encoded log has depth ${input.depth} but config.maxDepth is ${config.maxDepth}`);
    }
    resolved = resolveConfig({ ...config, maxDepth: input.depth });
    log = input;
  } else {
    resolved = resolveConfig(config);
    log = encodeSessions(input, resolved.maxDepth);
  }
  const counts = countLog(log);
  const parts = FITTERS[resolved.algorithm](log, counts, resolved);
  return restoreClickModel(buildSerializedModel(log, counts, resolved, parts));
}
