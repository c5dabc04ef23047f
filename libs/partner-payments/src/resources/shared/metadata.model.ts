/**
 * Metadata on users, virtual accounts and recipients (spec 2.5, spec 8): a string-to-string map.
 * The filter on GET /v1/recipients (spec 4.4) has the same shape; several keys require all of them.
 */
export type PartnerMetadata = Record<string, string>;

/** spec 4.4: metadata[key]=value query filter on the recipients list. */
export type PartnerMetadataFilter = Record<string, string>;

/** spec 8 "Metadata" row and 2.5. */
export const METADATA_LIMITS = {
  maxEntries: 50,
  minKeyLength: 1,
  maxKeyLength: 40,
  maxValueLength: 500,
} as const;
