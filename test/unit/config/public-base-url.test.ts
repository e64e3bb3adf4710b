import { describe, expect, it } from "vitest";
import { publicBaseUrlWarning } from "../../../src/config/public-base-url.js";

describe("PUBLIC_BASE_URL against the e-mails that carry it", () => {
  it("warns when mail goes out with links to a loopback address", () => {
    for (const url of ["http://localhost:8080", "http://LOCALHOST", "http://app.localhost:8080", "http://127.0.0.1:8080", "http://127.8.9.10", "http://[::1]:8080"]) {
      expect(publicBaseUrlWarning({ PUBLIC_BASE_URL: url, SMTP_URL: "smtp://mail.example.com:587" }), url).toMatch(/unsubscribe link/);
    }
  });

  it("is quiet for a reachable address, or when no mail goes out", () => {
    for (const url of ["https://api.example.com", "http://10.0.0.5:8080", "http://market-intel:8080", "http://[2001:db8::1]"]) {
      expect(publicBaseUrlWarning({ PUBLIC_BASE_URL: url, SMTP_URL: "smtp://mail.example.com:587" }), url).toBeNull();
    }
    expect(publicBaseUrlWarning({ PUBLIC_BASE_URL: "http://localhost:8080", SMTP_URL: undefined })).toBeNull();
  });
});
