// The branding tab's colours (issue 31, point 4): hex is accepted as well as HSL, a colour
// picker writes into the field, and what is sent is always the spec's HSL form, which is the
// only one the API stores (it refuses "#7c3aed"). The API is stubbed at fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Branding } from "@/lib/api/types";
import { Intl, storeAdminSession } from "./intl";

vi.mock("next/navigation", () => ({ useRouter: () => ({ replace: vi.fn(), push: vi.fn(), refresh: vi.fn() }) }));
vi.mock("@/lib/notify", () => ({ notify: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const STORED: Branding = {
  primaryColor: "240 9% 3.9%",
  secondaryColor: "240 4.8% 95.9%",
  accentColor: "240 4.8% 95.9%",
  dangerColor: "0 84.2% 60.2%",
  successColor: "142 76% 36%",
  companyName: "Rifa",
  description: "",
  logoUrl: "",
  contactEmail: "",
  contactPhone: "",
  whatsappUrl: "",
  facebookUrl: "",
  instagramUrl: "",
  tiktokUrl: "",
  whatsappChannelUrl: "",
  lotteryResultsUrl: "",
  videoUrls: ["", ""],
  participants: 50000,
  prizes: "2M+",
  countries: 25,
  rafflesPagePrizes: "$100K+",
  rafflesPageParticipants: 2000,
  rafflesPageWinners: 500,
};
vi.mock("@/lib/swr/use-branding", () => ({ useBranding: () => ({ data: STORED, mutate: vi.fn(async () => undefined) }) }));

const { BrandingTab } = await import("@/components/admin/branding-tab");

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** POST /api/admin/branding answers what it was sent; every body is kept. */
function stubSave() {
  const sent: Branding[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Branding;
      sent.push(body);
      return new Response(JSON.stringify(body));
    }),
  );
  return sent;
}

const show = (locale: "es" | "en" = "es") =>
  render(
    <Intl locale={locale}>
      <BrandingTab />
    </Intl>,
  );

describe("branding colours", () => {
  it("accepts a hex colour and sends it in the spec's HSL form", async () => {
    const sent = stubSave();
    show();
    const primary = screen.getByLabelText("Color primario", { exact: true });
    fireEvent.change(primary, { target: { value: "#7c3aed" } });
    await waitFor(() => expect(screen.getByRole("button", { name: "Guardar" })).toBeEnabled());
    expect(primary).not.toHaveAttribute("aria-invalid");
    fireEvent.click(screen.getByRole("button", { name: "Guardar" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.primaryColor).toBe("262.1 83.3% 57.8%");
    expect(sent[0]?.dangerColor).toBe("0 84.2% 60.2%");
  });

  it("offers a colour picker on each swatch that shows the field's colour and writes HSL into it", () => {
    show();
    const picker = screen.getByLabelText("Color de éxito: selector de color");
    expect(picker).toHaveAttribute("type", "color");
    expect(picker).toHaveValue("#16a249");
    fireEvent.change(picker, { target: { value: "#7c3aed" } });
    expect(screen.getByLabelText("Color de éxito", { exact: true })).toHaveValue("262.1 83.3% 57.8%");
    // Typed text still moves the picker.
    fireEvent.change(screen.getByLabelText("Color de éxito", { exact: true }), { target: { value: "hsl(0, 100%, 50%)" } });
    expect(picker).toHaveValue("#ff0000");
  });

  it("still refuses what is neither, and says both forms, in English", async () => {
    show("en");
    expect(screen.getByLabelText("Primary colour: colour picker")).toHaveAttribute("type", "color");
    const primary = screen.getByLabelText("Primary colour", { exact: true });
    fireEvent.change(primary, { target: { value: "#7c3a" } });
    await waitFor(() => expect(primary).toHaveAttribute("aria-invalid", "true"));
    expect(primary).toHaveAccessibleDescription("Use HSL: hue saturation% lightness% (e.g. 240 9% 3.9%) or hex (e.g. #7c3aed)");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });
});
