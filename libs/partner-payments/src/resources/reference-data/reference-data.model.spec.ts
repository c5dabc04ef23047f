import { partnerPostalCodePattern } from './reference-data.model';

/** Rows as the partner's runtime capture recorded them (evidence §11 N37 [T3raw countries/06]). */
const RECORDED = {
  USA: '\\A(\\d{5})(?:[ \\-](\\d{4}))?\\Z',
  CAN: '\\A[ABCEGHJKLMNPRSTVXY]\\d[ABCEGHJ-NPRSTV-Z] ?\\d[ABCEGHJ-NPRSTV-Z]\\d\\Z',
  AFG: '\\A\\d{4}\\Z',
};

describe('partnerPostalCodePattern (evidence §11 N37)', () => {
  it("reads the partner's Ruby anchors as a whole-string JavaScript RegExp", () => {
    const us = partnerPostalCodePattern({ postal_code_format: RECORDED.USA });
    expect(['78701', '78701-1234', '78701 1234'].every((p) => us?.test(p))).toBe(true);
    expect(['7870', '78701-12', 'x78701'].some((p) => us?.test(p))).toBe(false);
    expect(partnerPostalCodePattern({ postal_code_format: RECORDED.CAN })?.test('K1A 0B1')).toBe(true);
    const afg = partnerPostalCodePattern({ postal_code_format: RECORDED.AFG });
    expect([afg?.test('1001'), afg?.test('10011')]).toEqual([true, false]);
  });

  it('null, absent or not compilable here → null', () => {
    expect(partnerPostalCodePattern({ postal_code_format: null })).toBeNull();
    expect(partnerPostalCodePattern({} as { postal_code_format: null })).toBeNull();
    expect(partnerPostalCodePattern({ postal_code_format: '\\A(\\Z' })).toBeNull();
  });
});
