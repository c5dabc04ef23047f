import { Inject } from '@nestjs/common';
import { PARTNER_LOGGER, PARTNER_RESOLVED_OPTIONS } from './partner-payments.constants';

/** Injects the resolved options (ResolvedPartnerOptions: defaults merged, validated). */
export const InjectPartnerOptions = (): PropertyDecorator & ParameterDecorator =>
  Inject(PARTNER_RESOLVED_OPTIONS);

/** Injects the module's logger (a Nest LoggerService). */
export const InjectPartnerLogger = (): PropertyDecorator & ParameterDecorator => Inject(PARTNER_LOGGER);
