import { ApiProperty } from '@nestjs/swagger';
import type { PartnerVersionPinState } from '@partner-payments/typeorm';

const nullableString = { type: 'string', nullable: true } as const;

/** The version pin (GET /versioning, POST /versioning/pin; spec 9.3). */
export class PinStateDto implements PartnerVersionPinState {
  @ApiProperty({ type: 'string', description: 'PARTNER_API_VERSION', example: '2026-04-14' })
  configured!: string;
  @ApiProperty({
    ...nullableString,
    description: 'the version the account is pinned to, as the partner answered',
  })
  pinned!: string | null;
  @ApiProperty(nullableString)
  previous!: string | null;
  @ApiProperty(nullableString)
  lastOutcome!: string | null;
  @ApiProperty({ ...nullableString, description: 'a target the partner refused; not asked again' })
  refusedTarget!: string | null;
  @ApiProperty({ ...nullableString, format: 'date-time' })
  pinnedAt!: string | null;
  @ApiProperty({
    type: 'string',
    enum: ['upgraded', 'already-pinned', 'refused', 'skipped-refused', 'error', 'locked', 'read'],
    description: 'what this run did; `read` for GET /versioning, which calls nothing',
  })
  action!: PartnerVersionPinState['action'];
}
