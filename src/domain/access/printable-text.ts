/**
 * Names people give (keys, newsletter, an operator's names and reasons in the CLI): printable
 * text only. A control character (NUL, BEL, an escape sequence) or a bidirectional override
 * would be stored and later shown in `keys list`, owner notifications and e-mails, where it can
 * hide or reorder what an operator reads.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const PRINTABLE_TEXT = /^[^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]*$/;
export const PRINTABLE_TEXT_MESSAGE = "must not contain control or bidirectional-override characters";
