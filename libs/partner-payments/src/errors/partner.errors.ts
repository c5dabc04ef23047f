/**
 * Root of every error this module throws. API errors (PartnerApiError and its subclasses, in
 * partner-api.error.ts) and local errors thrown before any I/O both extend it, so a host app can
 * `catch (e) { if (e instanceof PartnerError) ... }` once.
 */
export abstract class PartnerError extends Error {
  /** A stable, machine-readable code, e.g. 'validation_error', 'local_validation'. */
  abstract readonly code: string;

  protected constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** One problem with one field of the input, named by its path (e.g. 'metadata.color', 'items[2].answer_value'). */
export interface PartnerFieldError {
  field: string;
  message: string;
}

/**
 * Thrown before any network call when the input breaks a rule of the contract (spec 8 limits,
 * answer_spec, upload rules). Nothing was sent and nothing was stored.
 */
export class PartnerLocalValidationError extends PartnerError {
  readonly code = 'local_validation';

  constructor(
    readonly fieldErrors: PartnerFieldError[],
    message?: string,
  ) {
    super(message ?? PartnerLocalValidationError.describe(fieldErrors));
  }

  private static describe(fieldErrors: PartnerFieldError[]): string {
    if (fieldErrors.length === 0) return 'Invalid input';
    return `Invalid input: ${fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
  }
}
