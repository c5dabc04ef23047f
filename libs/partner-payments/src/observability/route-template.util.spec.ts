import { partnerRouteTemplate } from './route-template.util';

describe('partnerRouteTemplate', () => {
  it.each([
    ['/auth', '/auth'],
    ['/v1/payouts', '/v1/payouts'],
    ['/v1/payouts/0b9f3c1e-1111-4222-8333-444455556666', '/v1/payouts/{payout_id}'],
    ['/v1/virtual-accounts/va-1/payout/preview', '/v1/virtual-accounts/{virtual_account_id}/payout/preview'],
    [
      '/v1/virtual-accounts/va-1/deposits/dep-9',
      '/v1/virtual-accounts/{virtual_account_id}/deposits/{deposit_id}',
    ],
    ['/v1/virtual-accounts/deposits', '/v1/virtual-accounts/deposits'],
    ['/v1/rfis/r1/items/i%2F2/documents/d3', '/v1/rfis/{rfi_id}/items/{item_id}/documents/{document_id}'],
    ['/v1/clients/c-uuid', '/v1/clients/{client_uuid}'],
    ['/v1/users/u1/liveness-link', '/v1/users/{user_id}/liveness-link'],
    // A path outside the contract keeps only the literals it shares with it: ids never leak into labels.
    ['/v2/custom/123', '/{id}/{id}/{id}'],
  ])('%s -> %s', (path, template) => {
    expect(partnerRouteTemplate(path)).toBe(template);
  });
});
