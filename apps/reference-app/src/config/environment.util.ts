/**
 * What the environment rules share: class-transformer transforms (integers, trimmed strings) and
 * the checks app.config.ts runs after class-validator (set or not, cron expressions).
 */
import { validateCronExpression } from 'cron';

export const isSet = (value: unknown): boolean =>
  value !== undefined && value !== null && String(value).trim() !== '';
export const toInt = ({ value }: { value: unknown }): unknown =>
  isSet(value) && /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;
export const trimmed = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;
export const CRON_MESSAGE = 'must be a cron expression (5 or 6 fields, e.g. "0 * * * * *")';
export const isCron = (value: unknown): boolean =>
  typeof value === 'string' && validateCronExpression(value).valid;
