/**
 * A URL fit for a log line: a webhook URL may carry credentials (user:password@host) or a token in
 * its query; both are masked, as logs never carry secrets.
 */
export function printableUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(unparseable URL)';
  }
  if (url.username || url.password) {
    url.username = '***';
    url.password = '';
  }
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '***');
  return url.toString();
}
