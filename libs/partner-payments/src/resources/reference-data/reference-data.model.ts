/** Reference data (evidence §8 [T2s Reference.cs][T3r DRIFT-7..9]): lists for building forms. */

/** A state or province. The partner's code format is not shown (the sandbox uses ISO 3166-2 suffixes, "TX"). */
export interface PartnerCountrySubdivision {
  code: string;
  name: string;
}

/** A country as GET /v1/countries sends it: the code field is `alpha3` (ISO 3166-1 alpha-3), not `code`. */
export interface PartnerCountry {
  alpha3: string;
  name: string;
  /**
   * The country's postal code as a regex in Ruby's anchors (`\A\d{5}\Z`), or null when it has
   * none (evidence §11 N37). `partnerPostalCodePattern` turns it into a RegExp.
   */
  postal_code_format: string | null;
  subdivisions: PartnerCountrySubdivision[];
}

/**
 * The country's `postal_code_format` as a JavaScript RegExp (`\A` → `^`, `\Z`/`\z` → `$`), or null
 * when the country has none or the pattern does not compile here.
 */
export function partnerPostalCodePattern(country: Pick<PartnerCountry, 'postal_code_format'>): RegExp | null {
  const format = country.postal_code_format;
  if (typeof format !== 'string' || format === '') return null;
  try {
    return new RegExp(format.replace(/\\A/g, '^').replace(/\\[Zz]/g, '$'));
  } catch {
    return null;
  }
}

/** GET /v1/countries → `{ count, data }` (250 entries at the partner). */
export interface PartnerCountryList {
  count: number;
  data: PartnerCountry[];
}

/** A bank of one country, `code` as recipients' `account.bank_code` takes it. */
export interface PartnerBank {
  code: string;
  name: string;
}

/** GET /v1/banks?country_code=XX → `{ banks, total, country_code }`. */
export interface PartnerBankList {
  banks: PartnerBank[];
  total: number;
  country_code: string;
}
