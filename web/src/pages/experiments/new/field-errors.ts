/** The API's (and the form's own) problems at a JSON pointer, as `errorsAt` in components/field finds them. */
export type ErrorLookup = (path: string, exact?: boolean) => string[];

/**
 * `at` only reads the problems (for `aria-invalid`); `track` also marks them as shown beside their field,
 * so the summary at the top of the form lists only the problems no field shows.
 */
export interface FieldErrors {
  at: ErrorLookup;
  track: ErrorLookup;
}
