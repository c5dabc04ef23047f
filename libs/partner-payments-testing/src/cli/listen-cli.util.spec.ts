import { listenOptionsFromCli } from './listen-cli.util';

describe('listenOptionsFromCli', () => {
  it('needs --forward-to, an absolute http(s) URL', () => {
    expect(() => listenOptionsFromCli([], {})).toThrow('--forward-to is required');
    expect(() => listenOptionsFromCli(['--forward-to', 'localhost:3000'], {})).toThrow(
      '--forward-to must be an absolute http(s) URL',
    );
  });

  it("defaults to the sandbox's primary account on 127.0.0.1:4010 and a relay on any free local port", () => {
    expect(listenOptionsFromCli(['--forward-to', 'http://127.0.0.1:3000/webhooks/partner'], {})).toEqual({
      forwardTo: 'http://127.0.0.1:3000/webhooks/partner',
      baseUrl: 'http://127.0.0.1:4010',
      host: '127.0.0.1',
      port: 0,
      timeoutMs: 10000,
    });
    expect(
      listenOptionsFromCli(['--forward-to', 'http://a/', '--port', '7000', '--client-uuid', 'c-2'], {
        PARTNER_SANDBOX_HOST: '10.0.0.5',
      }),
    ).toMatchObject({ baseUrl: 'http://10.0.0.5:4010', port: 7000, clientUuid: 'c-2' });
    expect(
      listenOptionsFromCli(['--forward-to', 'http://a/'], { PARTNER_SANDBOX_CLIENT_UUID: 'c-3' }),
    ).toMatchObject({
      clientUuid: 'c-3',
    });
  });

  it('refuses bad numbers', () => {
    expect(() => listenOptionsFromCli(['--forward-to', 'http://a/', '--port', '-1'], {})).toThrow('--port');
    expect(() => listenOptionsFromCli(['--forward-to', 'http://a/', '--timeout-ms', '0'], {})).toThrow(
      '--timeout-ms',
    );
  });
});
