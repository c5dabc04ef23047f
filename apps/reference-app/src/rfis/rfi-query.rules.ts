import { BadRequestException } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { OpenRfiFilters } from './rfi-projection.service';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const KNOWN = ['user_id', 'blocking', 'due_before'];

/** A path id the partner takes as a uuid (spec 4.2, 4.3): refused here, before any I/O, naming it. */
export function requireUuid(value: string, field: string): string {
  if (!isUUID(value)) throw new BadRequestException([`${field} must be a UUID`]);
  return value.toLowerCase();
}

/**
 * GET /rfis's query: user_id (uuid), blocking (true or false), due_before (a date or an instant
 * with its zone). Every problem is named; an unknown or repeated parameter too.
 */
export function parseOpenRfiQuery(query: Record<string, unknown>): OpenRfiFilters {
  const problems: string[] = [];
  const filters: OpenRfiFilters = {};
  for (const key of Object.keys(query)) {
    if (!KNOWN.includes(key)) problems.push(`${key} is not a known parameter (${KNOWN.join(', ')})`);
    else if (typeof query[key] !== 'string') problems.push(`${key} must be given once`);
  }
  const { user_id: userId, blocking, due_before: dueBefore } = query;
  if (typeof userId === 'string') {
    if (isUUID(userId)) filters.userId = userId.toLowerCase();
    else problems.push('user_id must be a UUID');
  }
  if (typeof blocking === 'string') {
    if (blocking === 'true' || blocking === 'false') filters.blocking = blocking === 'true';
    else problems.push('blocking must be true or false');
  }
  if (typeof dueBefore === 'string') {
    const at = ISO_INSTANT.test(dueBefore) ? new Date(dueBefore) : null;
    if (at && !Number.isNaN(at.getTime())) filters.dueBefore = at;
    else
      problems.push(
        'due_before must be a date (2026-12-31) or an instant with its zone (2026-12-31T12:00:00Z)',
      );
  }
  if (problems.length) throw new BadRequestException(problems);
  return filters;
}
