import { describe, expect, it } from "vitest";
import { mailboxOf } from "../../../src/domain/access/mailbox.js";

describe("mailboxOf", () => {
  it("reads subaddresses and letter case as the one mailbox they deliver to", () => {
    expect(["victim@example.net", "victim+1@example.net", "Victim+news+2@Example.NET"].map(mailboxOf)).toEqual([
      "victim@example.net",
      "victim@example.net",
      "victim@example.net",
    ]);
  });

  it("keeps addresses that merely contain a plus elsewhere, or start with one, apart", () => {
    expect(mailboxOf("+tag@example.net")).toBe("+tag@example.net");
    expect(mailboxOf("first.last@example.net")).toBe("first.last@example.net");
  });
});
