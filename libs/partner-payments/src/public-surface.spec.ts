/**
 * The public surface of @partner-payments/nestjs, name by name (types count): the root entry (at
 * most 40 names, what an app uses every day) and each subpath's explicit list. An export added to
 * or dropped from an entry fails here until the lists below say so. Also checked: package.json
 * `exports`, tsconfig.json `paths` and jest.config.js map the same entries; the reference app and
 * the other packages import this package through those entries only; the READMEs and topic pages
 * name no internal.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const LIB = join(__dirname, '..');
const REPO = join(LIB, '..', '..');
const PACKAGE = '@partner-payments/nestjs';

const ROOT_NAMES = [
  'OnPartnerEvent',
  'PARTNER_PAYMENTS_OPTIONS',
  'PartnerApiError',
  'PartnerClientConfigService',
  'PartnerDeposit',
  'PartnerDerivedEvent',
  'PartnerError',
  'PartnerEvent',
  'PartnerEventOf',
  'PartnerEventPayloads',
  'PartnerLocalValidationError',
  'PartnerPaymentsClient',
  'PartnerPaymentsModule',
  'PartnerPaymentsModuleAsyncOptions',
  'PartnerPaymentsModuleForRootOptions',
  'PartnerPaymentsModuleOptions',
  'PartnerPaymentsOptionsFactory',
  'PartnerPayout',
  'PartnerPayoutStatus',
  'PartnerPayoutStatusEvent',
  'PartnerPayoutsService',
  'PartnerQuotationsService',
  'PartnerRecipient',
  'PartnerRecipientsService',
  'PartnerReferenceDataService',
  'PartnerRfisService',
  'PartnerUser',
  'PartnerUsersService',
  'PartnerVersioningService',
  'PartnerVirtualAccount',
  'PartnerVirtualAccountsService',
  'PartnerWebhookError',
  'PartnerWebhookEvent',
  'PartnerWebhookGuard',
  'Rfi',
  'VerifiedPartnerBody',
  'createPartnerPaymentsClient',
];

/** Each subpath: `src/<subpath>.ts`, `./<subpath>` in package.json `exports`. */
const SUBPATH_NAMES: Record<string, string[]> = {
  models: [
    'CreatePartnerBusinessUserInput',
    'CreatePartnerCryptoPayoutInput',
    'CreatePartnerIndividualUserInput',
    'CreatePartnerPayoutInput',
    'CreatePartnerQuotationInput',
    'CreatePartnerRecipientInput',
    'CreatePartnerUserInput',
    'CreatePartnerVirtualAccountInput',
    'PartnerBank',
    'PartnerBankList',
    'PartnerCallOptions',
    'PartnerClientConfig',
    'PartnerCountry',
    'PartnerCountryList',
    'PartnerCountrySubdivision',
    'PartnerCryptoPayout',
    'PartnerDeposit',
    'PartnerMetadata',
    'PartnerPage',
    'PartnerPayout',
    'PartnerPayoutPreview',
    'PartnerPayoutStatus',
    'PartnerPayoutStatusChange',
    'PartnerPayoutStatusChangeReason',
    'PartnerQuotation',
    'PartnerRecipient',
    'PartnerUser',
    'PartnerVirtualAccount',
    'PartnerVirtualAccountBalance',
    'Rfi',
    'RfiAnswerInput',
    'RfiItem',
    'RfiListEntry',
    'UpdatePartnerUserInput',
    'UploadSource',
    'canReceiveFunds',
    'canonicalPartnerStatus',
    'decidePayoutStatusChange',
    'isTerminalDepositStatus',
    'isTerminalPayoutStatus',
    'isTerminalUserStatus',
    'isVirtualAccountUsable',
    'maskAccountNumber',
    'parsePartnerTimestamp',
    'partnerPostalCodePattern',
    'validateRfiAnswers',
  ],
  errors: [
    'PartnerApiError',
    'PartnerAuthenticationError',
    'PartnerConfigurationError',
    'PartnerConflictError',
    'PartnerConnectionError',
    'PartnerError',
    'PartnerFieldError',
    'PartnerIdempotencyConflictError',
    'PartnerItemError',
    'PartnerLocalValidationError',
    'PartnerNotFoundError',
    'PartnerPagingError',
    'PartnerPermissionError',
    'PartnerRateLimitError',
    'PartnerRfiAnswerError',
    'PartnerSandboxOnlyOperationError',
    'PartnerServerError',
    'PartnerTimeoutError',
    'PartnerValidationError',
    'PartnerVirtualAccountNotActiveError',
    'PartnerWebhookBodyTooLargeError',
    'PartnerWebhookConfigurationError',
    'PartnerWebhookError',
    'PartnerWebhookInboxError',
    'PartnerWebhookPayloadError',
    'PartnerWebhookSignatureError',
  ],
  webhooks: [
    'PARTNER_SIGNATURE_HEADER',
    'PartnerEventMap',
    'PartnerEventName',
    'PartnerProcessPendingOptions',
    'PartnerProcessPendingSummary',
    'PartnerUnknownEvent',
    'PartnerWebhookHandleResult',
    'PartnerWebhookHeaders',
    'PartnerWebhookIngestService',
    'PartnerWebhookOptions',
    'PartnerWebhookProcessingService',
    'isKnownPartnerEvent',
  ],
  inbox: [
    'InboxDrainOptions',
    'InboxDrainSummary',
    'InboxEntry',
    'InboxEntryState',
    'InboxEventInput',
    'InboxProcessOutcome',
    'InboxRecordResult',
    'PartnerEnvelopeKind',
    'PartnerInMemoryInboxStore',
    'PartnerInMemoryInboxStoreOptions',
    'PartnerInboxStore',
  ],
  transport: [
    'PartnerApiArea',
    'PartnerAuth',
    'PartnerHttp',
    'PartnerHttpMethod',
    'PartnerQuery',
    'PartnerQueryValue',
    'PartnerRateBudget',
    'PartnerRateLimit',
    'PartnerRateLimitOptions',
    'PartnerRequest',
    'PartnerResponse',
    'PartnerResponseMeta',
    'PartnerRetryOptions',
    'PartnerVersionState',
  ],
  observability: [
    'PARTNER_TRACER_NAME',
    'PartnerHttpEvent',
    'PartnerRateLimitWaitEvent',
    'PartnerSpanAttribute',
    'PartnerTokenEvent',
    'PartnerWebhookObservation',
    'currentPartnerLogContext',
  ],
};

/**
 * Library names no entry exports. The token manager, the API version state and the raw HTTP client
 * are reached through the client (`client.auth`, `client.versionState`, `client.http`), typed by
 * the /transport subpath's `PartnerAuth`, `PartnerVersionState` and `PartnerHttp`; the rest is
 * the module's own wiring (the inbox token, the options and logger decorators, the dispatcher) and
 * signing, which the sandbox package does for tests (`signPartnerWebhook`).
 */
const INTERNAL_NAMES = [
  'PartnerTokenManager',
  'PartnerApiVersionState',
  'PartnerHttpClient',
  'PARTNER_INBOX_STORE',
  'InjectPartnerOptions',
  'InjectPartnerLogger',
  'PartnerWebhookDispatcher',
  'computePartnerSignature',
  'verifyPartnerSignature',
];

const ENTRIES = ['index', ...Object.keys(SUBPATH_NAMES)];
const specifierOf = (entry: string) => (entry === 'index' ? PACKAGE : `${PACKAGE}/${entry}`);

/** Every name each entry file exports, types included, as the compiler sees them (sorted). */
function entryExports(): Map<string, string[]> {
  const files = ENTRIES.map((e) => join(__dirname, `${e}.ts`));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    experimentalDecorators: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  return new Map(
    ENTRIES.map((entry, i) => {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(files[i])!)!;
      return [
        entry,
        checker
          .getExportsOfModule(symbol)
          .map((s) => s.name)
          .sort(),
      ];
    }),
  );
}

/** The .ts/.js files under `dir`, recursively (no dist/, no node_modules/). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'dist' || name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bjest\.mock\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm;

/**
 * What in `text` (the file at `file`) reaches into this package other than through an entry: an
 * undeclared subpath (`@partner-payments/nestjs/dist/...`), or a relative path into its folder.
 */
function surfaceViolations(file: string, text: string, declared: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const [, spec] of text.matchAll(SPECIFIER)) {
    const intoPackage = spec === PACKAGE || spec.startsWith(`${PACKAGE}/`);
    const intoFolder =
      spec.startsWith('.') && `${resolve(dirname(file), spec)}${sep}`.startsWith(`${LIB}${sep}`);
    if ((intoPackage && !declared.has(spec)) || intoFolder) found.push(`${relative(REPO, file)}: ${spec}`);
  }
  return found;
}

/** The names of the `export { ... }` lists of a file (an index of another package). */
function listedExports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap(([, list]) =>
    list
      .split(',')
      .map((n) => n.trim().replace(/^type\s+/, ''))
      .filter(Boolean),
  );
}

describe('public surface of @partner-payments/nestjs', () => {
  let exported: Map<string, string[]>;
  beforeAll(() => {
    exported = entryExports();
  }, 60_000);

  it('the root exports at most 40 names, exactly these', () => {
    expect(ROOT_NAMES.length).toBeLessThanOrEqual(40);
    expect(exported.get('index')).toEqual([...ROOT_NAMES].sort());
  });

  it.each(Object.entries(SUBPATH_NAMES))(
    '@partner-payments/nestjs/%s exports exactly these',
    (sub, names) => {
      expect(exported.get(sub)).toEqual([...names].sort());
    },
  );

  it('the internal names are exported by no entry; only the catalogues (models, errors) repeat root names', () => {
    const everywhere = new Set([...exported.values()].flat());
    for (const name of INTERNAL_NAMES) expect(everywhere.has(name) ? `${name} exported` : name).toBe(name);
    // Subpaths repeat a root name only as a complete catalogue (every model, every error).
    for (const [sub, names] of exported) {
      if (sub === 'index' || sub === 'models' || sub === 'errors') continue;
      expect(names.filter((n) => ROOT_NAMES.includes(n))).toEqual([]);
    }
  });

  it('package.json exports and typesVersions, tsconfig.json paths and jest.config.js map the same entries', () => {
    const pkg = JSON.parse(readFileSync(join(LIB, 'package.json'), 'utf8'));
    const subs = Object.keys(SUBPATH_NAMES);
    expect(Object.keys(pkg.exports).sort()).toEqual(
      ['.', './package.json', ...subs.map((s) => `./${s}`)].sort(),
    );
    for (const entry of ENTRIES) {
      const key = entry === 'index' ? '.' : `./${entry}`;
      expect(pkg.exports[key]).toEqual({ types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` });
    }
    // TypeScript's node10 resolution (module: commonjs without moduleResolution) ignores `exports`.
    expect(pkg.typesVersions).toEqual({
      '*': Object.fromEntries(subs.map((s) => [s, [`./dist/${s}.d.ts`]])),
    });
    const tsconfig = ts.readConfigFile(join(REPO, 'tsconfig.json'), ts.sys.readFile).config;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.config.js is a CommonJS file
    const jest = require(join(REPO, 'jest.config.js')) as { projects: Array<{ moduleNameMapper: object }> };
    for (const entry of ENTRIES) {
      const source = `./libs/partner-payments/src/${entry}.ts`;
      expect(tsconfig.compilerOptions.paths[specifierOf(entry)]).toEqual([source]);
      for (const project of jest.projects)
        expect(project.moduleNameMapper).toHaveProperty(
          [`^${specifierOf(entry)}$`],
          `<rootDir>/${source.slice(2)}`,
        );
    }
  });
});

describe('consumers of @partner-payments/nestjs', () => {
  const declared = new Set(ENTRIES.map(specifierOf));

  it('finds an undeclared subpath and a relative path into the package', () => {
    const file = join(REPO, 'apps', 'reference-app', 'src', 'x.ts');
    const text = [
      "import { PartnerPaymentsModule } from '@partner-payments/nestjs';",
      "import type { InboxEntry } from '@partner-payments/nestjs/inbox';",
      "import { PartnerTokenManager } from '@partner-payments/nestjs/dist/auth/token-manager.service';",
      "const m = require('../../../libs/partner-payments/src/http/partner-http.client');",
      "import { x } from '../../../libs/partner-payments-typeorm/src/index';",
    ].join('\n');
    expect(surfaceViolations(file, text, declared)).toEqual([
      'apps/reference-app/src/x.ts: @partner-payments/nestjs/dist/auth/token-manager.service',
      'apps/reference-app/src/x.ts: ../../../libs/partner-payments/src/http/partner-http.client',
    ]);
  });

  it('the reference app and the other packages import it through its entries only', () => {
    // test/ and bench/ are left out: they test and measure internals, which they import by path.
    const dirs = [
      ...readdirSync(join(REPO, 'apps')).map((app) => join(REPO, 'apps', app, 'src')),
      join(REPO, 'libs', 'partner-payments-typeorm', 'src'),
      join(REPO, 'libs', 'partner-payments-testing', 'src'),
      join(REPO, 'libs', 'partner-payments-testing', 'examples'),
    ];
    const files = dirs.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => surfaceViolations(f, readFileSync(f, 'utf8'), declared))).toEqual([]);
  });

  it('the READMEs and topic pages name no internal name of the library', () => {
    const publicNames = new Set([...ENTRIES.flatMap((e) => listedExports(join(__dirname, `${e}.ts`)))]);
    const otherPackages = new Set(
      ['partner-payments-testing/src/index.ts', 'partner-payments-typeorm/src/index.ts'].flatMap((p) =>
        listedExports(join(REPO, 'libs', p)),
      ),
    );
    const declaration =
      /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:class|interface|type|const|function|enum)\s+(\w+)/gm;
    const internal = new Set(
      sourceFiles(__dirname)
        .filter((f) => !/\.(spec|fixture)\.ts$/.test(f))
        .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(declaration)].map((m) => m[1]))
        // The library's own identifiers; plain words (`send`, a field name) are not names of it.
        .filter((n) => /^(Partner|PARTNER_|Inject|Inbox)|Partner[A-Z]/.test(n))
        .filter((n) => !publicNames.has(n) && !otherPackages.has(n)),
    );
    for (const name of INTERNAL_NAMES) expect(internal.has(name) ? name : `${name} not found`).toBe(name);
    const pages = [
      'README.md',
      'libs/partner-payments/README.md',
      'libs/partner-payments-testing/README.md',
      'libs/partner-payments-typeorm/README.md',
      'apps/reference-app/README.md',
      'docs/operations.md',
      ...['docs/nestjs', 'docs/testing', 'docs/reference-app'].flatMap((dir) =>
        readdirSync(join(REPO, dir))
          .filter((n) => n.endsWith('.md'))
          .map((n) => `${dir}/${n}`),
      ),
    ];
    const named = pages.flatMap((page) => {
      const text = readFileSync(join(REPO, page), 'utf8');
      return [...internal].filter((n) => new RegExp(`\\b${n}\\b`).test(text)).map((n) => `${page}: ${n}`);
    });
    expect(named).toEqual([]);
  });
});
