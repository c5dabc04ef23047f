import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/**
 * The variables of logs, health and tracing, validated at boot like the rest
 * (EnvironmentVariables extends this class). The OTEL_* names are OpenTelemetry's own, so a
 * platform that sets them for every service configures this app too.
 */
export class ObservabilityVariables {
  /** `json`: one JSON object per line (Nest's ConsoleLogger json mode) with request/event/payout ids. */
  @IsOptional()
  @IsIn(['text', 'json'], { message: 'must be text or json' })
  LOG_FORMAT?: string;

  /**
   * Readiness fails when the oldest never-processed inbox entry is older than this: processing has
   * stalled. 0 leaves the inbox out of readiness.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be between 0 and 86400' })
  @Max(86400, { message: 'must be between 0 and 86400' })
  READINESS_INBOX_MAX_LAG_SECONDS?: number;

  /** `false`: a partner token that cannot be obtained makes readiness `degraded` (200), not 503. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  READINESS_REQUIRES_PARTNER?: string;

  /** OpenTelemetry's switch: `true` turns the exporter off even with an endpoint set. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  OTEL_SDK_DISABLED?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,200}$/, { message: 'must be 1 to 200 printable characters without spaces' })
  OTEL_SERVICE_NAME?: string;

  /** Base URL of an OTLP/HTTP collector; traces go to `<url>/v1/traces`. Setting it turns tracing on. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The traces URL itself (used as is); wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** Which traces are recorded (OpenTelemetry's names). Default parentbased_always_on: all. */
  @IsOptional()
  @IsIn(
    [
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ],
    { message: 'must be always_on, always_off, traceidratio or parentbased_ of one of them' },
  )
  OTEL_TRACES_SAMPLER?: string;

  /** The ratio of the *traceidratio samplers, 0 to 1. Default 1. */
  @IsOptional()
  @Matches(/^(0(\.\d+)?|1(\.0+)?)$/, { message: 'must be a number from 0 to 1' })
  OTEL_TRACES_SAMPLER_ARG?: string;

  /** `key=value,key2=value2` sent with every export (a vendor's API key): never logged. */
  @IsOptional()
  @Matches(/^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/, {
    message: 'must be a comma-separated list of key=value pairs',
  })
  OTEL_EXPORTER_OTLP_HEADERS?: string;
}
