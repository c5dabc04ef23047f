import { Global, Module } from '@nestjs/common';
import { PARTNER_CONNECTION, partnerConnectionProvider } from './partner-connection.providers';

/**
 * Where the partner is (PARTNER_CONNECTION): the configured one, or the embedded sandbox started
 * in-process when PARTNER_BASE_URL is unset. Global: the module options' factory, the version pin
 * and the shutdown need it.
 */
@Global()
@Module({
  providers: [partnerConnectionProvider],
  exports: [PARTNER_CONNECTION],
})
export class SandboxModule {}
