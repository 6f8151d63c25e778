// Quick buy: the buyer says how many numbers and the server draws them in the purchase itself
// (`randomCount`), so none is lost to another buyer between the picker and the purchase.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import { QuickBuyPanel } from "@/components/raffle/quick-buy-panel";
import { RaffleExperience } from "@/components/raffle/raffle-experience";
import { createPurchase, purchaseFormData, type PurchaseFields } from "@/lib/api/client";
import { swrConfig } from "@/lib/api/fetcher";
import type { PaymentMethod, PurchaseResponse } from "@/lib/api/types";
import { raffleFixture } from "./fixtures";
import { Intl } from "./intl";

const toastError = vi.fn();
vi.mock("@/lib/notify", () => ({
  notify: { error: (...args: unknown[]) => toastError(...args), success: vi.fn(), warning: vi.fn(), info: vi.fn() },
}));
vi.mock("next/navigation", () => ({
  usePathname: () => "/sorteo/1",
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));
// jsdom has no layout; Radix's checkbox measures itself with a ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  vi.unstubAllGlobals();
  toastError.mockReset();
});

const nb = (s: string | null | undefined) => (s ?? "").replace(/\u00a0/g, " ");

const buyer: Omit<PurchaseFields, "tickets"> = {
  customerName: "Ana Pérez",
  customerId: "V12345678",
  customerEmail: "ana@example.com",
  customerPhone: "04121234567",
  customerCountry: "venezuela",
  paymentMethod: "1",
  totalAmount: "15.00",
  discountApplied: "0",
  acceptTerms: true,
};

describe("the purchase form data", () => {
  it("sends randomCount and no ticketNumbers for a quick buy", () => {
    const form = purchaseFormData(5, { ...buyer, tickets: { randomCount: 3 } });
    expect(form.get("randomCount")).toBe("3");
    expect(form.has("ticketNumbers")).toBe(false);
    expect(form.get("totalAmount")).toBe("15.00");
  });

  it("sends ticketNumbers and no randomCount for numbers picked", () => {
    const form = purchaseFormData(5, { ...buyer, tickets: { numbers: [7, 42] } });
    expect(form.get("ticketNumbers")).toBe("[7,42]");
    expect(form.has("randomCount")).toBe(false);
  });

  it("posts an admin's quick buy to the test-purchase call with the same form", async () => {
    const calls: { url: string; body: FormData }[] = [];
    vi.stubGlobal("fetch", vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: init.body as FormData });
      return new Response("{}", { status: 201 });
    }));
    await createPurchase(5, { ...buyer, tickets: { randomCount: 2 } }, true);
    expect(calls[0]?.url).toBe("/api/admin/raffles/5/purchase");
    expect(calls[0]?.body.get("randomCount")).toBe("2");
    expect(calls[0]?.body.has("ticketNumbers")).toBe(false);
  });
});

describe("the quick-buy panel", () => {
  function panel(props: Partial<Parameters<typeof QuickBuyPanel>[0]> = {}, locale: "es" | "en" = "es") {
    const handlers = { onCountChange: vi.fn(), onStart: vi.fn(), onLeave: vi.fn() };
    render(
      <Intl locale={locale}>
        <QuickBuyPanel active={false} count={2} min={2} max={4} total="10.00" {...handlers} {...props} />
      </Intl>,
    );
    return handlers;
  }

  it("keeps the count within the limits", () => {
    const { onCountChange } = panel();
    expect(screen.getByRole("button", { name: "Uno menos" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Uno más" }));
    expect(onCountChange).toHaveBeenLastCalledWith(3);
    const field = screen.getByLabelText("Cantidad");
    fireEvent.change(field, { target: { value: "9" } });
    expect(onCountChange).toHaveBeenLastCalledWith(4);
    fireEvent.change(field, { target: { value: "1" } });
    expect(onCountChange).toHaveBeenLastCalledWith(2);
    // An empty field is a moment of typing, not a count.
    onCountChange.mockClear();
    fireEvent.change(field, { target: { value: "" } });
    expect(onCountChange).not.toHaveBeenCalled();
  });

  it("stops at the maximum", () => {
    panel({ count: 4 });
    expect(screen.getByRole("button", { name: "Uno más" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Uno menos" })).toBeEnabled();
  });

  it("cannot be used with fewer numbers left than the minimum, nor while they load", () => {
    const { unmount } = render(
      <Intl>
        <QuickBuyPanel active={false} count={2} min={2} max={1} total="10.00" onCountChange={vi.fn()} onStart={vi.fn()} onLeave={vi.fn()} />
      </Intl>,
    );
    expect(screen.getByRole("button", { name: /Compra rápida/ })).toBeDisabled();
    expect(screen.getByLabelText("Cantidad")).toBeDisabled();
    unmount();
    panel({ loading: true });
    expect(screen.getByRole("button", { name: /Compra rápida/ })).toBeDisabled();
  });

  it("starts with the button or Enter, and offers the way back once on", () => {
    const { onStart } = panel({}, "en");
    expect(screen.getByRole("heading", { name: "No favourite number?" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: /Quick buy/ }));
    fireEvent.keyDown(screen.getByLabelText("How many"), { key: "Enter" });
    expect(onStart).toHaveBeenCalledTimes(2);
  });

  it("says what it buys while on, in a live region", () => {
    const { onLeave } = panel({ active: true, count: 3, total: "15.00" });
    expect(screen.getByRole("heading", { name: "Compra rápida" })).toBeInTheDocument();
    const status = screen.getByRole("status");
    expect(status).toHaveAttribute("aria-live", "polite");
    expect(nb(status.textContent)).toBe("3 números al azar · US$ 15,00");
    fireEvent.click(screen.getByRole("button", { name: /Prefiero elegir mis números/ }));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });
});

const zelle: PaymentMethod = { id: 1, name: "Zelle", type: "zelle", active: true, details: {}, exchangeRateId: null, exchangeRate: null, referenceRequired: false, referenceMinLength: 0 };

/** 16 numbers, 1..10 on sale (or `free` of them), 1 to 5 a purchase, US$ 5 each. */
const FREE_TEN = [0xff, 0b1100_0000];

function receiptOf(numbers: number[]): PurchaseResponse {
  const total = `${numbers.length * 5}.00`;
  return {
    purchase: {
      id: 12,
      reference: "RF-7K3M9Q2X",
      raffleId: 1,
      raffleTitle: "Moto",
      ticketNumbers: numbers,
      ticketLabels: numbers.map((n) => String(n).padStart(4, "0")),
      customerName: "Ana Pérez",
      customerEmail: "ana@example.com",
      paymentMethod: "Zelle",
      totalAmount: total,
      discountApplied: "0",
      status: "pending",
      createdAt: "2026-11-20T12:00:00.000Z",
      convertedTotal: null,
    },
    purchaseToken: "k3y",
    buyerPagePath: "/compra/12#k3y",
    quote: { ticketCount: numbers.length, basePrice: "5.00", subtotal: total, discount: "0", discountPercentage: "0", meetsMinimum: true, total, appliedDiscount: null },
    testMode: false,
    ticketNumbers: numbers,
    totalAmount: total,
  };
}

/**
 * The API of the raffle page: the numbers on sale (`bitmap`, changed by the test between reads),
 * quotes at US$ 5 a number, and `purchases` answering the purchase posts in turn.
 */
function stubApi(purchases: Response[]) {
  const api = { bitmap: FREE_TEN, posts: [] as FormData[], availabilityReads: 0 };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (url.endsWith("/availability")) {
        api.availabilityReads++;
        const free = api.bitmap.reduce((sum, byte) => sum + byte.toString(2).replace(/0/g, "").length, 0);
        return new Response(new Uint8Array(api.bitmap), { headers: { "X-Max-Tickets": "16", "X-Available-Count": String(free) } });
      }
      const quote = /\/quote\?count=(\d+)$/.exec(url);
      if (quote) {
        const total = `${Number(quote[1]) * 5}.00`;
        return Response.json({ ticketCount: Number(quote[1]), basePrice: "5.00", subtotal: total, discount: "0", discountPercentage: "0", meetsMinimum: true, total, appliedDiscount: null });
      }
      if (url === "/api/raffles/1") return Response.json(raffleFixture({ maxTickets: 16, purchaseLimits: { min: 1, max: 5 } }));
      if (url === "/api/payment-methods") return Response.json([zelle]);
      if (url.endsWith("/purchase")) {
        api.posts.push(init.body as FormData);
        return purchases.shift() ?? new Response('{"code":"internal","message":"no more answers"}', { status: 500 });
      }
      // The proof's three steps.
      return Response.json({ uploadURL: "/api/objects/put/1" });
    }),
  );
  return api;
}

function page() {
  return render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <Intl>
        <RaffleExperience raffle={raffleFixture({ maxTickets: 16, purchaseLimits: { min: 1, max: 5 } })} methods={[zelle]} renderedAt={null} />
      </Intl>
    </SWRConfig>,
  );
}

const quickPanel = () => screen.getByTestId("quick-buy");
const startQuick = () => fireEvent.click(within(quickPanel()).getByRole("button", { name: /Compra rápida/ }));
const selectedCount = () => screen.getByTestId("picker-selected-count").textContent;

async function quickOf(count: number) {
  await screen.findByText("10 números disponibles");
  startQuick();
  fireEvent.change(screen.getByLabelText("Cantidad"), { target: { value: String(count) } });
  await waitFor(() => expect(selectedCount()).toBe(`${count} números al azar`));
}

async function fillForm() {
  fireEvent.change(await screen.findByLabelText("Nombre completo"), { target: { value: "Ana Pérez" } });
  fireEvent.change(screen.getByLabelText("Cédula o pasaporte"), { target: { value: "V1234567" } });
  fireEvent.change(screen.getByLabelText("Correo electrónico"), { target: { value: "ana@example.com" } });
  fireEvent.change(screen.getByLabelText("Teléfono (WhatsApp)"), { target: { value: "0414 123 4567" } });
  fireEvent.change(screen.getByLabelText("País"), { target: { value: "venezuela" } });
  fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "1" } });
  fireEvent.change(screen.getByLabelText("Comprobante de pago"), { target: { files: [new File(["png"], "pago.png", { type: "image/png" })] } });
  fireEvent.click(screen.getByRole("checkbox"));
}

describe("quick buy on the raffle page", () => {
  it("clears the selection, prices the count, and leaves by choice or by picking", async () => {
    stubApi([]);
    page();
    await screen.findByText("10 números disponibles");
    fireEvent.click(screen.getByRole("button", { name: "Número 0003" }));
    expect(selectedCount()).toBe("1 boleto seleccionado");

    startQuick();
    expect(quickPanel()).toHaveAttribute("data-active", "true");
    expect(screen.queryAllByRole("button", { pressed: true })).toHaveLength(0);
    expect(selectedCount()).toBe("1 número al azar");
    fireEvent.click(screen.getByRole("button", { name: "Uno más" }));
    fireEvent.click(screen.getByRole("button", { name: "Uno más" }));
    await waitFor(() => expect(nb(screen.getByTestId("picker-total").textContent)).toBe("US$ 15,00"));
    expect(selectedCount()).toBe("3 números al azar");
    expect(nb(screen.getByRole("status").textContent)).toBe("3 números al azar · US$ 15,00");
    expect(await screen.findByRole("button", { name: /^Comprar 3 boletos/ })).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: /Prefiero elegir mis números/ }));
    expect(quickPanel()).toHaveAttribute("data-active", "false");
    expect(screen.queryByTestId("picker-summary")).toBeNull();
    expect(screen.getByTestId("purchase-section")).not.toBeVisible();

    // The count is kept; a number picked by hand leaves quick buy.
    startQuick();
    expect(selectedCount()).toBe("3 números al azar");
    fireEvent.click(screen.getByRole("button", { name: "Número 0007" }));
    expect(quickPanel()).toHaveAttribute("data-active", "false");
    expect(selectedCount()).toBe("1 boleto seleccionado");

    // So does the picker's own random pick.
    startQuick();
    fireEvent.click(screen.getByRole("button", { name: "Al azar 5" }));
    expect(quickPanel()).toHaveAttribute("data-active", "false");
    expect(selectedCount()).toBe("5 boletos seleccionados");
  });

  it("never asks for more than the limit or the numbers left", async () => {
    const api = stubApi([]);
    api.bitmap = [0b1110_0000, 0];
    page();
    await screen.findByText("3 números disponibles");
    startQuick();
    fireEvent.change(screen.getByLabelText("Cantidad"), { target: { value: "5" } });
    expect(selectedCount()).toBe("3 números al azar");
    expect(screen.getByRole("button", { name: "Uno más" })).toBeDisabled();
  });

  it("posts randomCount without numbers and shows the drawn numbers on the receipt", async () => {
    const api = stubApi([Response.json(receiptOf([2, 5, 9]), { status: 201 })]);
    page();
    await quickOf(3);
    await fillForm();
    fireEvent.click(screen.getByRole("button", { name: /^Comprar 3 boletos/ }));

    const receipt = await screen.findByTestId("receipt-dialog");
    expect(within(receipt).getByText("0002")).toBeInTheDocument();
    expect(within(receipt).getByText("0005")).toBeInTheDocument();
    expect(within(receipt).getByText("0009")).toBeInTheDocument();
    const sent = api.posts[0]!;
    expect(sent.get("randomCount")).toBe("3");
    expect(sent.has("ticketNumbers")).toBe(false);
    expect(sent.get("totalAmount")).toBe("15.00");
    expect(quickPanel()).toHaveAttribute("data-active", "false");
  });

  it("on too_few_left says the server's words, reads the numbers again and asks for what is left", async () => {
    const message = "Solo quedan 2 números disponibles en este sorteo: pide 2 o menos.";
    const api = stubApi([
      Response.json({ code: "too_few_left", message, available: 2 }, { status: 409 }),
      Response.json(receiptOf([4, 8]), { status: 201 }),
    ]);
    page();
    await quickOf(3);
    await fillForm();
    const reads = api.availabilityReads;
    api.bitmap = [0b0001_0001, 0];
    fireEvent.click(screen.getByRole("button", { name: /^Comprar 3 boletos/ }));

    expect(await screen.findByTestId("tickets-error")).toHaveTextContent(message);
    expect(toastError).toHaveBeenCalledWith("Error al procesar la compra", expect.objectContaining({ description: message }));
    expect(selectedCount()).toBe("2 números al azar");
    await waitFor(() => expect(api.availabilityReads).toBeGreaterThan(reads));
    await screen.findByText("2 números disponibles");
    // What the buyer typed is still there: buying again asks for the two left.
    expect(screen.getByLabelText("Nombre completo")).toHaveValue("Ana Pérez");
    fireEvent.click(await screen.findByRole("button", { name: /^Comprar 2 boletos/ }));
    await screen.findByTestId("receipt-dialog");
    expect(api.posts[1]?.get("randomCount")).toBe("2");
    expect(api.posts[1]?.get("totalAmount")).toBe("10.00");
  });

  it("leaves quick buy when fewer are left than a purchase's minimum", async () => {
    const api = stubApi([Response.json({ code: "too_few_left", message: "Ya no quedan números disponibles en este sorteo.", available: 0 }, { status: 409 })]);
    page();
    await quickOf(2);
    await fillForm();
    api.bitmap = [0, 0];
    fireEvent.click(screen.getByRole("button", { name: /^Comprar 2 boletos/ }));
    await waitFor(() => expect(toastError).toHaveBeenCalledWith("Error al procesar la compra", expect.objectContaining({ description: "Ya no quedan números disponibles en este sorteo." })));
    expect(quickPanel()).toHaveAttribute("data-active", "false");
    expect(await screen.findByTestId("sold-out")).toBeInTheDocument();
  });

  it("on random_draw_contended shows the message and buys on the next press, nothing typed lost", async () => {
    const message = "Muchas compras a la vez: vuelve a intentarlo.";
    const api = stubApi([
      Response.json({ code: "random_draw_contended", message }, { status: 409 }),
      Response.json(receiptOf([1, 6, 10]), { status: 201 }),
    ]);
    page();
    await quickOf(3);
    await fillForm();
    fireEvent.click(screen.getByRole("button", { name: /^Comprar 3 boletos/ }));
    expect(await screen.findByTestId("tickets-error")).toHaveTextContent(message);
    expect(toastError).toHaveBeenCalledWith("Error al procesar la compra", { description: message });
    expect(selectedCount()).toBe("3 números al azar");
    expect(screen.getByLabelText("Correo electrónico")).toHaveValue("ana@example.com");
    expect(screen.getByRole("checkbox")).toBeChecked();

    fireEvent.click(screen.getByRole("button", { name: /^Comprar 3 boletos/ }));
    const receipt = await screen.findByTestId("receipt-dialog");
    expect(within(receipt).getByText("0010")).toBeInTheDocument();
    expect(api.posts).toHaveLength(2);
    expect(api.posts[1]?.get("randomCount")).toBe("3");
  });

  it("shows the server's refusal of the count above the button", async () => {
    const problem = "Límite de Boletos: Solo puedes comprar máximo 2 boletos en esta compra.";
    stubApi([Response.json({ code: "validation_failed", message: "Revisa los datos", fields: { randomCount: problem } }, { status: 422 })]);
    page();
    await quickOf(3);
    await fillForm();
    fireEvent.click(screen.getByRole("button", { name: /^Comprar 3 boletos/ }));
    expect(await screen.findByTestId("tickets-error")).toHaveTextContent(problem);
  });
});

// The picker shows a pick at once; the quote, the form and its total follow in a deferred render.
describe("numbers picked on the raffle page", () => {
  it("reach the form with their price, keep what was typed, and are posted as ticketNumbers", async () => {
    const api = stubApi([Response.json(receiptOf([3, 7]), { status: 201 })]);
    page();
    await screen.findByText("10 números disponibles");
    fireEvent.click(screen.getByRole("button", { name: "Número 0003" }));
    await fillForm();
    fireEvent.click(screen.getByRole("button", { name: "Número 0007" }));
    expect(selectedCount()).toBe("2 boletos seleccionados");
    const submit = await screen.findByRole("button", { name: /^Comprar 2 boletos/ });
    await waitFor(() => expect(nb(submit.textContent)).toBe("Comprar 2 boletos · US$ 10,00"));
    expect(screen.getByLabelText("Nombre completo")).toHaveValue("Ana Pérez");

    fireEvent.click(submit);
    await screen.findByTestId("receipt-dialog");
    expect(api.posts[0]?.get("ticketNumbers")).toBe("[3,7]");
    expect(api.posts[0]?.has("randomCount")).toBe(false);
    expect(api.posts[0]?.get("totalAmount")).toBe("10.00");
  });
});
