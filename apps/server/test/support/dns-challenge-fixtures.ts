/** RFC 2136 credentials of a made-up DNS server (TEST-NET-1), as the API takes them. */
export const RFC2136_SECRET = 'OWSVqAbRnvm/d1obcIUzUl9pnLnCL21UShrNvZxFHfw=';
export const RFC2136 = {
  provider: 'rfc2136',
  server: '192.0.2.53',
  port: 53,
  keyName: 'portico-key',
  algorithm: 'HMAC-SHA256',
  secret: RFC2136_SECRET,
};
