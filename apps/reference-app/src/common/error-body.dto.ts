import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The body of every error the app answers (Nest's HttpException shape): `message` is one sentence,
 * or one sentence per bad field from the validation pipe; `error` names the status or the cause
 * (`PartnerRefused`, `VirtualAccountNotActive`, `PayoutNeedsReview`).
 */
export class ErrorBodyDto {
  @ApiProperty({ type: 'integer', example: 400 })
  statusCode!: number;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: ['virtual_account_id must be a UUID'],
  })
  message!: string | string[];

  @ApiPropertyOptional({ type: 'string', example: 'Bad Request' })
  error?: string;
}
