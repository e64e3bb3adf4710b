/** Domains whose mailboxes ignore dots in the local part, and their one name. */
const DOTLESS: Readonly<Record<string, string>> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * The mailbox an address delivers to, as far as a sender can tell without asking the domain:
 * lower case, with a `+tag` dropped from the local part (the subaddress convention most
 * providers follow, Gmail's and Microsoft's included), and for Gmail without the dots it ignores
 * (`v.ictim@googlemail.com` is `victim@gmail.com`). `victim+1@…`, `victim+2@…` … all land in
 * one inbox, so a limit on welcome e-mails per mailbox must count them as one.
 */
export function mailboxOf(email: string): string {
  const lower = email.toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const domain = lower.slice(at + 1);
  const dotless = DOTLESS[domain];
  return dotless === undefined ? `${local}@${domain}` : `${local.replaceAll(".", "")}@${dotless}`;
}
