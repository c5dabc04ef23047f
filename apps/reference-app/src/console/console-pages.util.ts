import type { RfiItem } from '@partner-payments/nestjs/models';
import type { RfiEntity } from '../rfis/rfi.entity';
import { html, page, table, type Html } from './console-html.util';
import { answerInput, specHint } from './console-items.util';

type ShownItem = Omit<RfiItem, 'answer_value'>;

/** What a page says beyond its data: a notice, an error for the whole form, errors by item id. */
export interface PageMessages {
  notice?: string;
  errors?: string[];
  itemErrors?: Map<string, string[]>;
}

export function signInPage(csrf: string, error?: string): Html {
  return page(
    'Sign in',
    html`<h2>Sign in</h2>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      <form method="post" action="/console/sign-in">
        <input type="hidden" name="_csrf" value="${csrf}" />
        <label for="token">Operator token (OPERATOR_TOKEN)</label>
        <input type="password" id="token" name="token" autocomplete="current-password" required />
        <p><button type="submit">Sign in</button></p>
      </form>`,
  );
}

const day = (d: Date | null): string => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '—');

/** The open RFIs, soonest deadline first (the projection's order), blocking ones flagged. */
export function listPage(rfis: RfiEntity[], csrf: string, now = new Date()): Html {
  const rows = rfis.map(
    (r) =>
      html`<tr>
        <td>${day(r.dueAt)}${r.dueAt && r.dueAt < now ? html` <span class="error">overdue</span>` : ''}</td>
        <td>${r.blocking ? html`<span class="blocking">blocking ${r.blockingType ?? ''}</span>` : 'no'}</td>
        <td>${r.status}</td>
        <td>${r.userId ?? '—'}</td>
        <td><a href="/console/rfis/${encodeURIComponent(r.rfiId)}">${r.rfiId}</a></td>
      </tr>`,
  );
  return page(
    'Open RFIs',
    html`<h2>Open RFIs</h2>
      ${
        rows.length
          ? table('open-rfis', ['Due', 'Blocking', 'Status', 'Sub-client', 'RFI'], rows)
          : html`<p>No open RFIs.</p>`
      }`,
    { csrf },
  );
}

export function notFoundPage(rfiId: string, csrf: string): Html {
  return page(
    'Not found',
    html`<p><a href="/console">← Open RFIs</a></p>
      <p>The app holds no RFI ${rfiId}.</p>`,
    {
      csrf,
    },
  );
}

function errorList(messages: string[] | undefined): Html | string {
  if (!messages?.length) return '';
  return html`<ul class="error" role="alert">
    ${messages.map((m) => html`<li>${m}</li>`)}
  </ul>`;
}

function documentsOf(item: ShownItem): Html | string {
  if (!item.documents?.length) return '';
  return html`<ul class="documents">
    ${item.documents.map((d) => html`<li>${d.file_name} (${d.mime_type}, ${d.size_bytes} bytes)</li>`)}
  </ul>`;
}

function uploadForm(rfiId: string, item: ShownItem, csrf: string): Html {
  const spec = (item.answer_spec ?? {}) as Record<string, unknown>;
  const types = Array.isArray(spec.mime_types) ? spec.mime_types.filter((t) => typeof t === 'string') : [];
  const maxFiles = typeof spec.max_files === 'number' ? spec.max_files : undefined;
  const full = maxFiles !== undefined && (item.documents?.length ?? 0) >= maxFiles;
  // The token rides in the query: the upload route streams the body to the partner and accepts
  // no field but the file, so the token is checked before a byte of the body is read.
  const action = `/console/rfis/${encodeURIComponent(rfiId)}/items/${encodeURIComponent(item.item_id)}/documents?_csrf=${encodeURIComponent(csrf)}`;
  return html`<form method="post" enctype="multipart/form-data" action="${action}">
    <input
      type="file"
      name="files"
      id="file-${item.item_id}"
      accept="${types.join(',')}"
      ${full ? html` disabled` : ''}
      required
    />
    <button type="submit" ${full ? html` disabled` : ''}>Upload</button>${
      maxFiles !== undefined
        ? html` <span class="meta">${item.documents?.length ?? 0} of ${maxFiles} files</span>`
        : ''
    }
  </form>`;
}

function itemBlock(rfiId: string, item: ShownItem, csrf: string, errors: string[] | undefined): Html {
  const input = answerInput(item);
  const hint = specHint(item);
  const spec = (item.answer_spec ?? {}) as Record<string, unknown>;
  const ubo = typeof spec.url === 'string' && /^https:\/\//i.test(spec.url) ? spec.url : null;
  return html`<section class="item" id="item-${item.item_id}" data-status="${item.status}">
    <h3><label for="in-${item.item_id}">${item.prompt}</label></h3>
    <p class="meta">
      ${item.answer_type} · <span class="status">${item.status}</span>${
        item.subject ? html` · about ${item.subject.display_name ?? item.subject.person_id}` : ''
      }${hint ? html` · ${hint}` : ''}
    </p>
    ${item.review_note ? html`<p class="returned">Returned: ${item.review_note}</p>` : ''}
    ${errorList(errors)}${input ?? ''}${documentsOf(item)}${
      item.answer_type === 'document' ? uploadForm(rfiId, item, csrf) : ''
    }${ubo ? html`<p><a href="${ubo}" rel="noreferrer">Identity verification link</a></p>` : ''}
  </section>`;
}

/**
 * One RFI: each item with the input that fits it and its errors beside it; the answerable items in
 * one form sent in one call, each document item with its own upload form (one file per request).
 */
export function rfiPage(rfi: RfiEntity, items: ShownItem[], csrf: string, messages: PageMessages = {}): Html {
  // The upload forms sit inside the item blocks, so the answers form wraps no item: it names its
  // fields with form="answers" (HTML forms cannot nest).
  const blocks = items.map((item) =>
    itemBlock(rfi.rfiId, item, csrf, messages.itemErrors?.get(item.item_id)),
  );
  return page(
    `RFI ${rfi.rfiId}`,
    html`<p><a href="/console">← Open RFIs</a></p>
      <h2>RFI ${rfi.rfiId}</h2>
      <p class="meta">
        status ${rfi.status} · due ${day(rfi.dueAt)} ·
        ${
          rfi.blocking
            ? html`<span class="blocking">blocking ${rfi.blockingType ?? ''} ${rfi.blockingRef ?? ''}</span>`
            : 'not blocking'
        }
      </p>
      ${messages.notice ? html`<p class="notice" role="status">${messages.notice}</p>` : ''}${errorList(messages.errors)}
      <form method="post" id="answers" action="/console/rfis/${encodeURIComponent(rfi.rfiId)}/answers">
        <input type="hidden" name="_csrf" value="${csrf}" />
      </form>
      ${blocks}
      <p><button type="submit" form="answers">Send answers</button></p>`,
    { csrf },
  );
}
