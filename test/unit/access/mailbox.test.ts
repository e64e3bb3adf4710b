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

  it("reads Gmail's dotted variants and its other domain as one mailbox", () => {
    expect(["victim@gmail.com", "v.ictim@gmail.com", "V.i.c.t.i.m+x@GoogleMail.com"].map(mailboxOf)).toEqual([
      "victim@gmail.com",
      "victim@gmail.com",
      "victim@gmail.com",
    ]);
  });

  it("keeps addresses apart where the domain reads dots and leading pluses as part of the name", () => {
    expect(mailboxOf("+tag@example.net")).toBe("+tag@example.net");
    expect(mailboxOf("first.last@example.net")).toBe("first.last@example.net");
    expect(mailboxOf("firstlast@example.net")).toBe("firstlast@example.net");
  });
});
