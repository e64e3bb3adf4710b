/**
 * The mailbox an address delivers to, as far as a sender can tell without asking the domain:
 * lower case, with a `+tag` dropped from the local part (the subaddress convention most
 * providers follow, Gmail's and Microsoft's included). `victim+1@…`, `victim+2@…` … all land in
 * one inbox, so a limit on welcome e-mails per mailbox must count them as one.
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return email.toLowerCase();
  const local = email.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${email.slice(at)}`.toLowerCase();
}
