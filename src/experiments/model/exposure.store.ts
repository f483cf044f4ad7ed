/** The first assignment of a unit in a phase: the start of its data in the experiment. */
export interface ExposureRecord {
  experimentId: string;
  phase: number;
  unitId: string;
  variantId: string;
  exposedAt: number;
  /** Pre-exposure covariates sent with assign (attributes.covariates), for CUPED. */
  covariates: Record<string, number> | null;
  /** The assign attributes the experiment slices by (`attr:` dimensions), as slice values; null if none. */
  sliceAttributes?: Record<string, string> | null;
}

export interface ExposureStore {
  /**
   * Inserts the rows that do not exist yet, in one transaction; existing exposures are kept as
   * they were. Returns the exposures that were new.
   */
  recordExposures(rows: ExposureRecord[]): Promise<ExposureRecord[]>;
  countExposures(experimentId: string, phase: number): Promise<Record<string, number>>;
}
