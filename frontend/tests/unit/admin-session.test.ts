import { beforeEach, describe, expect, it } from "vitest";
import { clearSession, isTokenValid, readSession, saveSession, tokenExpiry } from "@/lib/auth/session";

/** A JWT-shaped token with the given claims (the signature is not checked in the browser). */
function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}.signature`;
}
const user = { id: 1, username: "admin", role: "admin", authenticated: true, privileged: true, staffRole: "owner", permissions: ["purchases"], mustChangePassword: false };
const now = () => Math.floor(Date.now() / 1000);

beforeEach(() => localStorage.clear());

describe("token expiry (exp in seconds)", () => {
  it("reads exp from the payload", () => {
    expect(tokenExpiry(jwt({ exp: 1_900_000_000 }))).toBe(1_900_000_000);
  });
  it("treats exp as seconds, not milliseconds", () => {
    const exp = now() + 60;
    expect(isTokenValid(jwt({ exp }))).toBe(true);
    expect(isTokenValid(jwt({ exp }), exp + 1)).toBe(false);
    // A millisecond value would be far in the future; a past seconds value is expired.
    expect(isTokenValid(jwt({ exp: now() - 1 }))).toBe(false);
  });
  it("rejects undecodable tokens and tokens without exp", () => {
    expect(tokenExpiry("not-a-token")).toBeNull();
    expect(tokenExpiry("a.%%%.c")).toBeNull();
    expect(tokenExpiry(jwt({ sub: "1" }))).toBeNull();
    expect(tokenExpiry(jwt({ exp: "soon" }))).toBeNull();
    expect(isTokenValid("garbage")).toBe(false);
  });
});

describe("stored session", () => {
  it("restores a valid token and user", () => {
    saveSession({ token: jwt({ exp: now() + 3600 }), user });
    expect(readSession()?.user.username).toBe("admin");
  });
  it("logs out an expired token on load, clearing both keys", () => {
    localStorage.setItem("auth_token", jwt({ exp: now() - 5 }));
    localStorage.setItem("auth_user", JSON.stringify(user));
    expect(readSession()).toBeNull();
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(localStorage.getItem("auth_user")).toBeNull();
  });
  it("logs out an undecodable token", () => {
    localStorage.setItem("auth_token", "xxx");
    localStorage.setItem("auth_user", JSON.stringify(user));
    expect(readSession()).toBeNull();
    expect(localStorage.getItem("auth_token")).toBeNull();
  });
  it("removes corrupt user data together with the token", () => {
    localStorage.setItem("auth_token", jwt({ exp: now() + 3600 }));
    localStorage.setItem("auth_user", "{not json");
    expect(readSession()).toBeNull();
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(localStorage.getItem("auth_user")).toBeNull();
  });
  it("logout clears both keys", () => {
    saveSession({ token: jwt({ exp: now() + 3600 }), user });
    clearSession();
    expect(localStorage.getItem("auth_token")).toBeNull();
    expect(localStorage.getItem("auth_user")).toBeNull();
    expect(readSession()).toBeNull();
  });
});
