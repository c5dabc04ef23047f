import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsUUID, Matches, Max, Min, ValidateIf } from 'class-validator';
import { HttpServerVariables } from './http-server.rules';
import { isSet, toInt, trimmed } from './environment.util';

/** Validates a variable only when the app talks to a real partner (PARTNER_BASE_URL set). */
export const whenRemote = (o: PartnerVariables): boolean => isSet(o.PARTNER_BASE_URL);

/**
 * The partner's address, credentials, version and the client's limits, validated at boot like the
 * rest (EnvironmentVariables extends this class). Messages never echo a value (several are secrets).
 */
export class PartnerVariables extends HttpServerVariables {
  /** Unset: the app starts the embedded sandbox and points itself at it. */
  @IsOptional()
  @Transform(trimmed)
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  PARTNER_BASE_URL?: string;

  @IsOptional()
  @IsIn(['sandbox', 'production'], { message: 'must be sandbox or production' })
  PARTNER_ENV?: string;

  @ValidateIf(whenRemote)
  @IsNotEmpty({ message: 'is required when PARTNER_BASE_URL is set' })
  PARTNER_API_KEY?: string;

  @ValidateIf(whenRemote)
  @IsNotEmpty({ message: 'is required when PARTNER_BASE_URL is set' })
  PARTNER_CLIENT_ID?: string;

  @ValidateIf(whenRemote)
  @IsNotEmpty({ message: 'is required when PARTNER_BASE_URL is set' })
  PARTNER_PASSWORD?: string;

  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  PARTNER_CLIENT_UUID?: string;

  /** Comma-separated: during a rotation both secrets are accepted (provider-facts "Webhooks"). */
  @ValidateIf(whenRemote)
  @Matches(/[^,\s]/, {
    message: 'is required when PARTNER_BASE_URL is set (comma-separated list of secrets)',
  })
  PARTNER_WEBHOOK_SECRET?: string;

  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a version date like 2026-04-14 (spec 9.1)' })
  PARTNER_API_VERSION?: string;

  /** Per-attempt timeout of a partner call, so a slow partner cannot hold a caller for minutes. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(100, { message: 'must be between 100 and 120000' })
  @Max(120000, { message: 'must be between 100 and 120000' })
  PARTNER_TIMEOUT_MS?: number;

  /** Retries of a retryable partner call (never of a write that may have reached the partner unkeyed). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be between 0 and 10' })
  @Max(10, { message: 'must be between 0 and 10' })
  PARTNER_MAX_RETRIES?: number;

  /** Client-side limit over every partner call (evidence §1: the partner allows 20 requests/s per account). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 1000' })
  @Max(1000, { message: 'must be between 1 and 1000' })
  PARTNER_RATE_LIMIT_PER_SECOND?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 1000' })
  @Max(1000, { message: 'must be between 1 and 1000' })
  PARTNER_RATE_LIMIT_BURST?: number;

  /** database: one bucket shared by every replica (the partner counts per account); process: one each. */
  @IsOptional()
  @IsIn(['database', 'process', 'off'], { message: 'must be database, process or off' })
  PARTNER_RATE_BUDGET?: string;

  @IsOptional()
  @IsIn(['always', 'until-pinned'], { message: 'must be always or until-pinned' })
  PARTNER_SEND_VERSION_HEADER?: string;
}
