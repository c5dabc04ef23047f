import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { sendZodValidation } from '../../server/http-errors.util';
import type { SandboxContext } from '../../server/sandbox-context.util';
import { COLOMBIAN_BANKS, countryList } from './countries.constants';

/** evidence §8 [T3r DRIFT-8]: the only country the partner lists banks for. */
const ONLY_CO = 'Only CO (Colombia) is supported at this time';

/**
 * Reference data (evidence §8): GET /v1/countries `{ count, data: [{ alpha3, name, postal_code_format, subdivisions }] }`
 * and GET /v1/banks?country_code=CO `{ banks: [{ code, name }], total, country_code }`. Both need
 * the api key and a bearer like every call (evidence §2 [T3r DRIFT-12]). `/banks` without `/v1`
 * is not served (the partner's answers there are an edge artefact, not an API: DRIFT-7).
 */
export function registerReferenceDataRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  // evidence §11 N37 [T3raw countries/06, 07]: the whole list whatever `limit` and `offset` say.
  router.get('/v1/countries', ...auth, (_req, res) => {
    const data = countryList();
    res.json({ count: data.length, data });
  });

  router.get('/v1/banks', ...auth, (req, res) => {
    const params = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const countryCode = params.get('country_code');
    // evidence §8 [T3r DRIFT-9]: `country` instead of `country_code` is a missing country_code.
    if (countryCode === null && params.has('country')) {
      return sendZodValidation(res, [{ path: 'country_code', message: 'Required', code: 'invalid_type' }]);
    }
    // DRIFT-8: co, COL, MX or nothing: strict uppercase CO only.
    if (countryCode !== 'CO') {
      return sendZodValidation(res, [{ path: 'country_code', message: ONLY_CO, code: 'custom' }]);
    }
    res.json({
      banks: COLOMBIAN_BANKS.map((b) => ({ ...b })),
      total: COLOMBIAN_BANKS.length,
      country_code: 'CO',
    });
  });
}
