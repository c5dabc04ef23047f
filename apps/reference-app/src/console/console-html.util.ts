import { createHash } from 'node:crypto';
import type { Response } from 'express';

/** Markup that is already safe: built by `html`, whose every interpolated value is escaped. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an element's content or a quoted attribute value (the five characters HTML gives meaning). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * The page's only way to make markup: every value interpolated is escaped unless it is itself Html,
 * so a partner string (a prompt, a review note, a file name) is always shown as text.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1d2330}
header{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #ccd;margin-bottom:1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e5ec}
.item{border:1px solid #ccd;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}
.item h3{margin:0 0 .4rem;font-size:1rem}.meta{color:#5a6275;font-size:.85rem}
.error{color:#a4161a;font-weight:600}.notice{background:#e8f4ea;padding:.5rem .75rem;border-radius:4px}
.returned{background:#fff4d6;padding:.4rem .6rem;border-radius:4px}.blocking{color:#a4161a;font-weight:600}
input[type=text],textarea,select,input[type=number],input[type=date]{width:100%;box-sizing:border-box;padding:.3rem}
button{padding:.35rem .9rem}`;

/** Built outside `html`, whose templates a formatter may re-indent: the hash is of these exact bytes. */
const STYLE_ELEMENT = new Html(`<style>${STYLE}</style>`);

/**
 * The Content-Security-Policy of every console page: nothing is allowed but what it names, no
 * script at all, and its one inline stylesheet by its hash (CSP Level 3 hash sources).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every console answer: the CSP, no caching, no referrer, no framing, no sniffing. */
export function setConsoleHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
}

/** A whole page; `signOut` carries the session's CSRF token when someone is signed in. */
export function page(title: string, body: Html, signOut?: { csrf: string }): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>${title} · RFI console</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <header>
          <h1>RFI console</h1>
          <nav><a href="/console">Open RFIs</a> · <a href="/console/operations">Payouts and inbox</a></nav>
          ${
            signOut
              ? html`<form method="post" action="/console/sign-out">
                  <input type="hidden" name="_csrf" value="${signOut.csrf}" /><button type="submit">
                    Sign out
                  </button>
                </form>`
              : ''
          }
        </header>
        <main>${body}</main>
      </body>
    </html>`;
}

/** Sends a page with the console's headers. */
export function sendPage(res: Response, status: number, markup: Html): void {
  setConsoleHeaders(res);
  res.status(status).type('html').send(markup.value);
}

/** A table of `rows` under `headers`, with an id for links and tests. */
export function table(id: string, headers: string[], rows: Html[]): Html {
  return html`<table id="${id}">
    <thead>
      <tr>
        ${headers.map((h) => html`<th>${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
