import {
  PartnerTypeOrmConfigurationError,
  resolvePartnerTypeOrmOptions,
} from '../partner-payments-typeorm.options';
import { DEFAULT_VERSION_PIN_CRON } from './version-pin.options';

describe('the versionPin option', () => {
  it('is absent unless given: nothing to schedule', () => {
    expect(resolvePartnerTypeOrmOptions({ holder: 'a' }).versionPin).toBeUndefined();
  });

  it('fills the daily default schedule and keeps what is given', () => {
    expect(
      resolvePartnerTypeOrmOptions({ versionPin: { version: '2026-04-14', account: 'client-1' } }).versionPin,
    ).toEqual({ version: '2026-04-14', account: 'client-1', cron: DEFAULT_VERSION_PIN_CRON });
    expect(
      resolvePartnerTypeOrmOptions({
        versionPin: { version: '2026-06-01', account: 'client-1', cron: '*/5 * * * * *' },
      }).versionPin,
    ).toEqual({ version: '2026-06-01', account: 'client-1', cron: '*/5 * * * * *' });
  });

  it.each([
    [true, 'versionPin'],
    [null, 'versionPin'],
    [{ account: 'client-1' }, 'versionPin.version'],
    [{ version: '14-04-2026', account: 'client-1' }, 'versionPin.version'],
    [{ version: '2026-04-14' }, 'versionPin.account'],
    [{ version: '2026-04-14', account: ' ' }, 'versionPin.account'],
    [{ version: '2026-04-14', account: 'x'.repeat(257) }, 'versionPin.account'],
    [{ version: '2026-04-14', account: 'client-1', cron: 'daily' }, 'versionPin.cron'],
    [{ version: '2026-04-14', account: 'client-1', cron: '0 99 3 * * *' }, 'versionPin.cron'],
    [{ version: '2026-04-14', account: 'client-1', cron: 5 }, 'versionPin.cron'],
  ])('refuses %j, naming %s', (versionPin, field) => {
    let caught: unknown;
    try {
      resolvePartnerTypeOrmOptions({ versionPin } as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PartnerTypeOrmConfigurationError);
    expect(caught).toMatchObject({ field, message: expect.stringContaining(field) });
  });

  it('never echoes the account identifier in its message', () => {
    const secretish = `client-${'s'.repeat(300)}`;
    expect(() =>
      resolvePartnerTypeOrmOptions({ versionPin: { version: '2026-04-14', account: secretish } }),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secretish) }));
  });
});
