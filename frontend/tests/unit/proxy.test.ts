// The site's proxy: a link that names its language (`?lang=en`, as the API's e-mails do) renders
// in it and leaves the language cookie behind (issue 31: an English e-mail's link opened the
// purchase page in Spanish in a fresh browser).
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "@/proxy";

describe("the language a link names", () => {
  it("is the cookie of this render and of the browser", () => {
    const request = new NextRequest("https://rifa.example/compra/12?lang=en#k3y", { headers: { cookie: "NEXT_LOCALE=es" } });
    const response = proxy(request);
    const kept = response.cookies.get("NEXT_LOCALE");
    expect(kept?.value).toBe("en");
    expect(kept?.path).toBe("/");
    // What the page's own render reads: the request's cookie header, overridden.
    expect(response.headers.get("x-middleware-override-headers")).toContain("cookie");
    expect(response.headers.get("x-middleware-request-cookie")).toContain("NEXT_LOCALE=en");
  });

  it("is ignored when it is not one of the site's", () => {
    for (const url of ["https://rifa.example/compra/12?lang=fr", "https://rifa.example/sorteos"]) {
      const response = proxy(new NextRequest(url));
      expect(response.cookies.get("NEXT_LOCALE")).toBeUndefined();
    }
  });

  it("runs on pages only", () => {
    const [matcher] = config.matcher;
    const runs = (path: string) => new RegExp(`^${matcher}$`).test(path);
    expect(runs("/compra/12")).toBe(true);
    expect(runs("/sorteo/3/verificacion")).toBe(true);
    expect(runs("/api/raffles")).toBe(false);
    expect(runs("/_next/static/chunk.js")).toBe(false);
    expect(runs("/logo.png")).toBe(false);
  });
});
