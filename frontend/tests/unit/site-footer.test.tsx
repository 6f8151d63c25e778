import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import type { Branding } from "@/lib/api/types";

// The footer is a server component: its translations come from next-intl/server.
vi.mock("next-intl/server", async () => {
  const es = (await import("../../messages/es.json")).default as unknown as Record<string, Record<string, string>>;
  return { getTranslations: async (ns: string) => (key: string) => es[ns]?.[key] ?? key };
});
vi.mock("next/link", () => ({ default: (props: React.ComponentProps<"a">) => <a {...props} /> }));
vi.mock("@/components/layout/section-link", () => ({ SectionLink: ({ children }: { children: React.ReactNode }) => <a>{children}</a> }));

const { SiteFooter } = await import("@/components/layout/site-footer");

const branding = (changes: Partial<Branding>): Branding => ({
  primaryColor: "240 9% 3.9%",
  secondaryColor: "240 4.8% 95.9%",
  accentColor: "240 4.8% 95.9%",
  dangerColor: "0 84.2% 60.2%",
  successColor: "142 76% 36%",
  companyName: "Rifa",
  description: "",
  logoUrl: "",
  contactEmail: "soporte@rifa.app",
  contactPhone: "+58 412 555 0199",
  whatsappUrl: "https://wa.me/584125550199",
  facebookUrl: "https://www.facebook.com/",
  instagramUrl: "https://www.instagram.com/",
  tiktokUrl: "https://www.tiktok.com/",
  whatsappChannelUrl: "https://www.whatsapp.com/channel/",
  lotteryResultsUrl: "https://www.loteriadecaracas.com/",
  videoUrls: ["", ""],
  participants: 50000,
  prizes: "2M+",
  countries: 25,
  rafflesPagePrizes: "$100K+",
  rafflesPageParticipants: 2000,
  rafflesPageWinners: 500,
  ...changes,
});

describe("site footer", () => {
  it("shows the contact and social links the operator set in branding", async () => {
    render(await SiteFooter({ companyName: "Sorteos Aurora", branding: branding({ contactEmail: "ayuda@aurora.com.ve", contactPhone: "+58 414 000 1111", whatsappUrl: "https://wa.me/584140001111", instagramUrl: "https://instagram.com/aurora" }) }));

    expect(screen.getByTestId("footer-email")).toHaveTextContent("ayuda@aurora.com.ve");
    expect(screen.getByTestId("footer-email")).toHaveAttribute("href", "mailto:ayuda@aurora.com.ve");
    expect(screen.getByTestId("footer-phone")).toHaveAttribute("href", "https://wa.me/584140001111");
    expect(screen.getByRole("link", { name: "Instagram" })).toHaveAttribute("href", "https://instagram.com/aurora");
    expect(screen.queryByText("soporte@rifa.app")).toBeNull();
  });

  it("leaves out what the operator left blank", async () => {
    render(await SiteFooter({ companyName: "Rifa", branding: branding({ contactEmail: "", facebookUrl: "", tiktokUrl: "" }) }));

    expect(screen.queryByTestId("footer-email")).toBeNull();
    expect(screen.queryByRole("link", { name: "Facebook" })).toBeNull();
    expect(screen.queryByRole("link", { name: "TikTok" })).toBeNull();
    expect(screen.getByRole("link", { name: "Instagram" })).toBeInTheDocument();
  });
});
