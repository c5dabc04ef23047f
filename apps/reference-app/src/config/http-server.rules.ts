import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ObservabilityVariables } from './observability.rules';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/**
 * Bounds of the HTTP server, validated at boot like the rest (EnvironmentVariables extends this
 * class). Node's own defaults let one client hold a connection for 300 s by sending a byte now and
 * then, and accept connections without limit; the webhook route and the API need neither.
 */
export class HttpServerVariables extends ObservabilityVariables {
  /** Longest time to receive a request's headers (Node's server.headersTimeout). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1000, { message: 'must be between 1000 and 120000' })
  @Max(120000, { message: 'must be between 1000 and 120000' })
  HTTP_HEADERS_TIMEOUT_MS?: number;

  /** Longest time to receive a whole request, headers and body (server.requestTimeout). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1000, { message: 'must be between 1000 and 600000' })
  @Max(600000, { message: 'must be between 1000 and 600000' })
  HTTP_REQUEST_TIMEOUT_MS?: number;

  /** How long an idle keep-alive connection stays open after an answer (server.keepAliveTimeout). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1000, { message: 'must be between 1000 and 600000' })
  @Max(600000, { message: 'must be between 1000 and 600000' })
  HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;

  /** Connections open at once; past it new ones are closed at once (server.maxConnections). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be between 1 and 100000' })
  @Max(100000, { message: 'must be between 1 and 100000' })
  HTTP_MAX_CONNECTIONS?: number;
}
