/**
 * Money on exact integer cents (BigInt), never through a float.
 *
 * The partner writes amounts as decimal strings: request amounts match `^[0-9]+(\.[0-9]{1,2})?$`
 * (evidence §6 [T3r DRIFT-41]), a payout's `from_amount` and `to_amount` come back as decimal strings
 * (evidence §6 [D get-a-payout]), and so do deposit amounts (evidence §5 [T2]). A double has 15 to 17
 * significant digits, so `Number("999999999999999.99")` is 1000000000000000: an app paying 15-digit
 * amounts (the reference app accepts 15 integer digits) would see cents appear or vanish in the
 * sandbox that the partner never moved. Every amount, balance and fee of the sandbox is therefore
 * parsed from its digits into BigInt cents and formatted back from them.
 */

/** evidence §6 [T3r DRIFT-41]: the amount format the partner checks at runtime. No length limit is recorded. */
export const AMOUNT_PATTERN = /^[0-9]+(\.[0-9]{1,2})?$/;

/** The cents of an amount string, or undefined for anything that is not a string matching AMOUNT_PATTERN. */
export function parseAmountCents(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !AMOUNT_PATTERN.test(value)) return undefined;
  const [whole, fraction = ''] = value.split('.');
  // "0.1" is ten cents, as "0.10" is: the fraction is padded on the right, not read as a number.
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** The cents of an amount the sandbox already accepted (a stored one); throws on anything else. */
export function amountCents(value: string): bigint {
  const cents = parseAmountCents(value);
  if (cents === undefined) throw new RangeError(`not a decimal amount string: ${JSON.stringify(value)}`);
  return cents;
}

/** True for an amount string above zero ("0", "0.00" and anything malformed are not). */
export const isPositiveAmount = (value: unknown): value is string => (parseAmountCents(value) ?? 0n) > 0n;

/** Cents as a decimal string with exactly 2 decimals ("-" first when negative, e.g. an overdrawn balance). */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** An amount string with exactly 2 decimals ("5" → "5.00", "0.1" → "0.10", "007.50" → "7.50"); throws when malformed. */
export const normaliseAmount = (value: string): string => formatCents(amountCents(value));

const PERCENT_PATTERN = /^[0-9]+(\.[0-9]+)?$/;

/**
 * A percentage (a number such as 2.5, or its decimal string) as an exact fraction of 100:
 * `numerator / denominator` of the whole. Read from the number's shortest decimal form (String(2.5)
 * is "2.5"), so no binary rounding enters the fee. Throws on negative, non-finite or exponent forms.
 */
export function parsePercent(percent: number | string): { numerator: bigint; denominator: bigint } {
  const text = typeof percent === 'number' ? String(percent) : percent;
  if (!PERCENT_PATTERN.test(text))
    throw new RangeError(`not a non-negative decimal percentage: ${JSON.stringify(percent)}`);
  const [whole, fraction = ''] = text.split('.');
  return { numerator: BigInt(whole + fraction), denominator: 100n * 10n ** BigInt(fraction.length) };
}

/**
 * `percent` % of `cents`, rounded half-up to a whole cent (x.5 cents and above round up). The
 * partner's rounding of fees is not recorded in the evidence; half-up is the usual commercial
 * rule, and it is applied once, to the percentage part only (a fixed fee is already whole cents).
 * Only for non-negative cents, which is all a fee is computed on.
 */
export function percentOfCents(cents: bigint, percent: number | string): bigint {
  if (cents < 0n) throw new RangeError('a percentage is taken of a non-negative amount only');
  const { numerator, denominator } = parsePercent(percent);
  // floor((cents·n/d) + 1/2) = floor((2·cents·n + d) / 2d), exact on BigInt.
  return (2n * cents * numerator + denominator) / (2n * denominator);
}
