/** The ESM-only packages the Jest preset transforms: NestJS, file-type and its parts. */
export declare const ESM_PACKAGES: readonly string[];
/** A transformIgnorePatterns entry that lets Jest transform the given packages, and no other. */
export declare function esmIgnorePattern(packages: readonly string[]): string;
