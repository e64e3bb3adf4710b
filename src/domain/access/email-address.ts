/**
 * What we accept as an e-mail address: the WHATWG definition of a valid e-mail address (what a
 * browser's `<input type="email">` accepts: `first~last@…`, `user%tag@…`, punycode domains such
 * as `….xn--p1ai`), with at least one dot in the domain, since an address on a dotless host
 * cannot be reached from the internet, and with the local part an SMTP dot-atom (RFC 5321: no
 * leading, trailing or doubled dot): WHATWG allows `a..b@…`, which mail servers refuse, so it
 * was answered "check your inbox" and could never be sent. zod's default pattern refused
 * several valid addresses (`~`, `%`, punycode top-level domains). Not accepted: quoted local
 * parts, IP-literal domains and non-ASCII characters (an international domain is accepted in
 * its punycode form).
 */
export const EMAIL_ADDRESS =
  /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** RFC 5321's limit on a forward path. */
export const EMAIL_MAX_LENGTH = 254;
