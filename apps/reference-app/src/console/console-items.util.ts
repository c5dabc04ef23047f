import type { RfiItem } from '@partner-payments/nestjs/models';
import { html, type Html } from './console-html.util';

type ShownItem = Omit<RfiItem, 'answer_value'>;
type Spec = Record<string, unknown>;

/** The form field of an item's answer: `answer:<item_id>`. */
export const answerField = (itemId: string): string => `answer:${itemId}`;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const scalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A choice's options as value and label (spec 2.1: a scalar, or `{ value, label }`). */
export function choiceOptions(spec: Spec): Array<{ value: string | number | boolean; label: string }> {
  const options = Array.isArray(spec.options) ? (spec.options as unknown[]) : [];
  return options.flatMap((o) => {
    if (scalar(o)) return [{ value: o, label: String(o) }];
    const { value, label } = (o ?? {}) as Record<string, unknown>;
    return scalar(value) ? [{ value, label: typeof label === 'string' ? label : String(value) }] : [];
  });
}

/** The input that fits an item's answer_type and answer_spec (spec 2.1); null for document and ubo_link. */
export function answerInput(item: ShownItem): Html | null {
  const spec = (item.answer_spec ?? {}) as Spec;
  const name = answerField(item.item_id);
  const id = `in-${item.item_id}`;
  switch (item.answer_type) {
    case 'text_long':
      return html`<textarea form="answers" id="${id}" name="${name}" rows="4"></textarea>`;
    case 'number':
      return html`<input
        type="number"
        step="any"
        form="answers"
        id="${id}"
        name="${name}"
        min="${num(spec.min)}"
        max="${num(spec.max)}"
      />`;
    case 'date':
      return html`<input type="date" form="answers" id="${id}" name="${name}" />`;
    case 'boolean':
      return html`<select form="answers" id="${id}" name="${name}">
        <option value="">(no answer)</option>
        <option value="true">yes</option>
        <option value="false">no</option>
      </select>`;
    case 'choice':
      return html`<select form="answers" id="${id}" name="${name}">
        <option value="">(no answer)</option>
        ${choiceOptions(spec).map((o) => html`<option value="${String(o.value)}">${o.label}</option>`)}
      </select>`;
    case 'document':
    case 'ubo_link':
      return null;
    default:
      return html`<input type="text" form="answers" id="${id}" name="${name}" />`;
  }
}

/** What the partner's rules say about an answer, in words (max_length as the partner counts it). */
export function specHint(item: ShownItem): string {
  const spec = (item.answer_spec ?? {}) as Spec;
  const parts: string[] = [];
  if (num(spec.max_length) !== undefined)
    parts.push(`at most ${spec.max_length} characters (counted in UTF-16 code units, as the partner counts)`);
  if (typeof spec.format === 'string') parts.push(`format ${spec.format}`);
  if (num(spec.min) !== undefined) parts.push(`at least ${spec.min}`);
  if (num(spec.max) !== undefined) parts.push(`at most ${spec.max}`);
  if (typeof spec.unit === 'string') parts.push(`in ${spec.unit}`);
  if (num(spec.min_age) !== undefined) parts.push(`at least ${spec.min_age} years ago`);
  if (Array.isArray(spec.mime_types)) parts.push(`types: ${spec.mime_types.join(', ')}`);
  if (num(spec.max_files) !== undefined) parts.push(`at most ${spec.max_files} files`);
  return parts.join('; ');
}

/**
 * The form's answers as PATCH /rfis/{rfi_id}/items takes them: the items left empty are not sent,
 * and each value is turned into its item's type only when it reads as one, so anything else reaches
 * the library's validator (validateRfiAnswers) as typed and is refused there, named.
 */
export function answersFromForm(
  form: Record<string, unknown>,
  items: readonly ShownItem[],
): Array<{ item_id: string; answer_value: unknown }> {
  const answers: Array<{ item_id: string; answer_value: unknown }> = [];
  for (const item of items) {
    const raw = form[answerField(item.item_id)];
    if (typeof raw !== 'string' || raw === '') continue;
    answers.push({ item_id: item.item_id, answer_value: typed(item, raw) });
  }
  return answers;
}

function typed(item: ShownItem, raw: string): unknown {
  switch (item.answer_type) {
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'choice': {
      const option = choiceOptions((item.answer_spec ?? {}) as Spec).find((o) => String(o.value) === raw);
      return option ? option.value : raw;
    }
    default:
      return raw;
  }
}
