/**
 * A key (`svc_pro_…`) anywhere; a webhook secret or provider key where a token starts. The
 * logger's redaction knows field names only, so text a caller chose (a path, a request id) is
 * checked for this shape before it goes into a log line.
 */
export const SECRET_SHAPE = /svc[_-](free|basic|pro)[_-]|(?<![a-z0-9])(svc|whsec|sk)[_-]/i;
