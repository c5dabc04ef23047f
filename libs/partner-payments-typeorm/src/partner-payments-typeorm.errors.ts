/** A bad option, found at boot; `field` names it. */
export class PartnerTypeOrmConfigurationError extends Error {
  override readonly name = 'PartnerTypeOrmConfigurationError';

  constructor(
    readonly field: string,
    /** What is wrong with it, without the package's prefix and the field's name. */
    readonly reason: string,
  ) {
    super(`@partner-payments/typeorm: ${field} ${reason}`);
  }
}

/** Throws PartnerTypeOrmConfigurationError: the `fail` of the option resolvers. */
export function failConfiguration(field: string, reason: string): never {
  throw new PartnerTypeOrmConfigurationError(field, reason);
}
