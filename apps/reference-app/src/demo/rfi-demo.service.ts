import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PARTNER_CONNECTION, type PartnerConnection } from '../sandbox/partner-connection.providers';

/** A one-page PDF's bytes: the sandbox checks a file is the type it is sent as (spec 7.3). */
const DEMO_PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

interface HeldRfi {
  status: string;
  stale: boolean;
  items: Array<{ item_id: string; answer_type: string; status: string }>;
}

/**
 * The demo's RFI step: the embedded sandbox (the partner's compliance team) asks the demo user for
 * a trading name, a source of funds and a proof of address; rfi.created brings it to the app, and
 * the demo answers it as an operator would, through the app's own endpoints (PATCH for the
 * answers, a multipart upload for the file).
 */
@Injectable()
export class RfiDemo {
  private readonly logger = new Logger('Demo');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PARTNER_CONNECTION) private readonly connection: PartnerConnection,
  ) {}

  async run(appUrl: string, userId: string): Promise<{ rfiId: string; status: string }> {
    const sandbox = this.connection.sandbox;
    if (!sandbox) throw new Error('the demo drives the embedded sandbox: unset PARTNER_BASE_URL to run it');
    const seeded = await sandbox.control.seedRfi({
      userId,
      items: [{ answer_type: 'text_short' }, { answer_type: 'choice' }, { answer_type: 'document' }],
    });
    await sandbox.control.flushWebhooks();
    const held = await this.waitFor(appUrl, seeded.rfiId, (r) => !r.stale && r.items.length === 3);
    this.logger.log(
      `RFI ${seeded.rfiId}: the partner asks ${held.items.map((i) => i.answer_type).join(', ')}; rfi.created brought it, the app read its items`,
    );
    const [text, choice, document] = seeded.itemIds;
    await this.call(appUrl, 'PATCH', `/rfis/${seeded.rfiId}/items`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [
          { item_id: text, answer_value: 'Lovelace Analytics' },
          { item_id: choice, answer_value: 'salary' },
        ],
      }),
    });
    const boundary = `demo-${randomUUID()}`;
    const file = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="proof-of-address.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      DEMO_PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    await this.call(appUrl, 'POST', `/rfis/${seeded.rfiId}/items/${document}/documents`, {
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(file.length),
      },
      body: file,
    });
    const answered = await this.waitFor(appUrl, seeded.rfiId, (r) => r.status === 'answered');
    this.logger.log(
      `RFI ${seeded.rfiId} answered through the app (PATCH /rfis/{id}/items, one file uploaded to POST /rfis/{id}/items/{item}/documents): status ${answered.status}`,
    );
    return { rfiId: seeded.rfiId, status: answered.status };
  }

  /** GET /rfis/{id} until `done`, for up to 5 s (the RFI is read back after its event). */
  private async waitFor(appUrl: string, rfiId: string, done: (r: HeldRfi) => boolean): Promise<HeldRfi> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const res = await fetch(`${appUrl}/rfis/${rfiId}`, { headers: this.operatorHeaders() });
      const rfi = res.ok ? ((await res.json()) as HeldRfi) : null;
      if (rfi && done(rfi)) return rfi;
      if (Date.now() > deadline) throw new Error(`RFI ${rfiId} did not reach the expected state in the app`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async call(appUrl: string, method: string, path: string, init: RequestInit): Promise<void> {
    const res = await fetch(`${appUrl}${path}`, {
      ...init,
      method,
      headers: { ...this.operatorHeaders(), ...(init.headers as Record<string, string>) },
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  }

  /** The operator endpoints want OPERATOR_TOKEN when it is set (the demo leaves them open otherwise). */
  private operatorHeaders(): Record<string, string> {
    const token = this.config.access.operatorToken;
    return token ? { authorization: `Bearer ${token}` } : {};
  }
}
