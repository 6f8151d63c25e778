import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { OutboxMail } from "@/lib/api/types";
import { OutboxList } from "@/components/admin/email-tab";
import { Intl } from "./intl";

const retryMail = vi.fn(async (id: number) => void id);
vi.mock("@/lib/api/admin", () => ({ retryMail: (id: number) => retryMail(id), saveEmailSettings: vi.fn(), sendTestEmail: vi.fn() }));

const mail = (over: Partial<OutboxMail>): OutboxMail => ({
  id: 1,
  purchaseId: 7,
  kind: "received",
  recipient: "vic@example.com",
  status: "withheld",
  attempts: 0,
  nextAttemptAt: "2026-11-24T10:00:00.000Z",
  lastError: null,
  withheldReason: "hourly_cap",
  createdAt: "2026-11-24T10:00:00.000Z",
  sentAt: null,
  ...over,
});
const outbox: Record<string, OutboxMail[]> = {
  withheld: [mail({ id: 11 }), mail({ id: 12, purchaseId: 8, withheldReason: "daily_cap" })],
  failed: [],
};
vi.mock("@/lib/swr/use-mail-outbox", () => ({
  useMailOutbox: (status: string) => ({ data: outbox[status], mutate: vi.fn() }),
}));
vi.mock("@/lib/swr/use-email-settings", () => ({
  useEmailSettings: () => ({ data: undefined }),
}));

describe("the outbox's kinds of e-mail", () => {
  it("names the expiry and release notices, and the raffle a release notice is about", () => {
    outbox.failed = [mail({ id: 21, kind: "expired", status: "failed", purchaseId: 9 }), mail({ id: 22, kind: "numbers_released", status: "failed", purchaseId: null, raffleId: 4 })];
    render(
      <Intl>
        <OutboxList status="failed" />
      </Intl>,
    );
    const [expiredRow, releasedRow] = screen.getAllByRole("row").slice(1);
    expect(expiredRow).toHaveTextContent("Reserva vencida");
    expect(expiredRow).toHaveTextContent("#9");
    expect(releasedRow).toHaveTextContent("Números liberados");
    expect(releasedRow).toHaveTextContent("Sorteo #4");
    expect(releasedRow).not.toHaveTextContent("#null");
    outbox.failed = [];
  });
});

describe("the outbox's withheld e-mails", () => {
  it("lists each withheld confirmation with its reason, in Spanish", () => {
    render(
      <Intl>
        <OutboxList status="withheld" />
      </Intl>,
    );

    expect(screen.getByText("Correos retenidos")).toBeTruthy();
    expect(screen.getByText("Retenido: la dirección alcanzó su límite de correos por hora")).toBeTruthy();
    expect(screen.getByText("Retenido: la dirección alcanzó su límite de correos por día")).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Enviar igualmente" })).toHaveLength(2);
  });

  it("sends a withheld e-mail when the admin asks, in English", async () => {
    render(
      <Intl locale="en">
        <OutboxList status="withheld" />
      </Intl>,
    );

    expect(screen.getByText("Withheld: the address reached its daily e-mail limit")).toBeTruthy();
    fireEvent.click(screen.getAllByRole("button", { name: "Send anyway" })[1]!);

    await waitFor(() => expect(retryMail).toHaveBeenCalledWith(12));
  });

  it("says when nothing was withheld", () => {
    outbox.withheld = [];
    render(
      <Intl locale="en">
        <OutboxList status="withheld" />
      </Intl>,
    );

    expect(screen.getByText("No withheld e-mails.")).toBeTruthy();
  });
});
