import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { PartnerVariables } from './partner.rules';
import { toInt } from './environment.util';

/**
 * Where the app runs: its database, the address it binds and is reached at, and the credentials
 * of its callers (EnvironmentVariables extends this class). Messages never echo a value.
 */
export class DeploymentVariables extends PartnerVariables {
  @IsOptional()
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/i, {
    message: 'must be sqlite:<file path> or postgres://user:password@host:port/database',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be between 0 and 65535' })
  @Max(65535, { message: 'must be between 0 and 65535' })
  PORT?: number;

  /**
   * Interface to bind: 127.0.0.1, so the app is not exposed by default; a container sets 0.0.0.0.
   */
  @IsOptional()
  @Matches(/^(\d{1,3}(\.\d{1,3}){3}|::1?|[0-9a-fA-F:]+|localhost)$/, {
    message: 'must be an IP address (e.g. 127.0.0.1, 0.0.0.0, ::)',
  })
  HOST?: string;

  /**
   * The bearer token of the operator endpoints (/reconciliation/*, /versioning/*,
   * /inbox/*, and every route not marked otherwise). Unset: they answer 401, except in the
   * embedded-sandbox demo. At least 16 characters; never logged.
   */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,512}$/, {
    message: 'must be 16 to 512 printable characters without spaces',
  })
  OPERATOR_TOKEN?: string;

  /**
   * The keys callers send as X-Api-Key to POST /payouts, GET /payouts/* and
   * GET /virtual-accounts/:id/balance; comma-separated so a key can be rotated (old and new both
   * accepted meanwhile). Unset: those endpoints answer 401, except in the embedded-sandbox demo.
   */
  @IsOptional()
  @Matches(/^\s*[\x21-\x2b\x2d-\x7e]{16,512}\s*(,\s*[\x21-\x2b\x2d-\x7e]{16,512}\s*)*$/, {
    message: 'must be a comma-separated list of keys of 16 to 512 printable characters without spaces',
  })
  APP_API_KEYS?: string;

  /** Where the embedded sandbox should deliver webhooks, when the app is reached through another address. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;
}
