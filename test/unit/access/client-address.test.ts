import { describe, expect, it } from "vitest";
import { clientBucket } from "../../../src/application/client-address.js";

describe("clientBucket", () => {
  it("counts an IPv4 address as it is", () => {
    expect(clientBucket("203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts every address of one IPv6 /64 together, however it is spelled", () => {
    const bucket = "2001:db8:1:2::/64";
    for (const ip of ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0:0:0:7", "2001:db8:1:2:a::b", "2001:db8:1:2::1%eth0", "2001:db8:1:2::192.0.2.1"]) {
      expect(clientBucket(ip)).toBe(bucket);
    }
    expect(clientBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientBucket("::1")).toBe("0:0:0:0::/64");
    expect(clientBucket("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(clientBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientBucket("::FFFF:cb00:7109")).toBe("203.0.113.9");
    expect(clientBucket("0:0:0:0:0:ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("leaves what is not an address alone", () => {
    expect(clientBucket("unknown")).toBe("unknown");
    expect(clientBucket("2001:db8::1::2")).toBe("2001:db8::1::2");
  });
});
