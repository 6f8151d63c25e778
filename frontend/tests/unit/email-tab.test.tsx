import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import type { EmailSettings } from "@/lib/api/types";
import { Intl } from "./intl";

const saved: { current: EmailSettings } = {
  current: { emailHost: "", emailPort: 587, emailUser: "", hasPassword: false, fromEmail: "", senderIsPlaceholder: true },
};

vi.mock("@/lib/swr/use-email-settings", () => ({
  useEmailSettings: () => ({ data: saved.current, mutate: vi.fn() }),
}));
vi.mock("@/lib/swr/use-mail-outbox", () => ({
  useMailOutbox: () => ({ data: [], mutate: vi.fn(), isLoading: false, error: undefined }),
}));

const { EmailTab } = await import("@/components/admin/email-tab");

describe("e-mail settings tab", () => {
  it("warns in Spanish while the saved sender is a placeholder, naming the address used", () => {
    saved.current = { ...saved.current, fromEmail: "", senderIsPlaceholder: true };
    render(<Intl><EmailTab /></Intl>);
    const warning = screen.getByTestId("sender-placeholder-warning");
    expect(warning).toHaveTextContent("Los correos a los compradores salen de rifa@localhost, una dirección de prueba");
    expect(screen.getByLabelText("Correo remitente")).toHaveAccessibleDescription(/dirección de prueba/);
  });

  it("warns in English for an example.com sender", () => {
    saved.current = { ...saved.current, fromEmail: "no-reply@example.com", senderIsPlaceholder: true };
    render(<Intl locale="en"><EmailTab /></Intl>);
    expect(screen.getByTestId("sender-placeholder-warning")).toHaveTextContent("Buyer e-mails are sent from no-reply@example.com, a placeholder address");
  });

  it("says nothing once the sender is a real address", () => {
    saved.current = { ...saved.current, fromEmail: "pagos@rifasve.com", senderIsPlaceholder: false };
    render(<Intl><EmailTab /></Intl>);
    expect(screen.queryByTestId("sender-placeholder-warning")).toBeNull();
  });
});
