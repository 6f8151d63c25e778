// The payment method's reference rules in the panel (issue 16): 'Exigir número de referencia'
// and its minimum in the method's dialog, saved with the method, and shown in the methods list.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { SWRConfig } from "swr";
import type { PaymentMethod } from "@/lib/api/types";
import { referenceMinOf } from "@/lib/validations/payment-method";
import { Intl, storeAdminSession } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));
vi.mock("@/lib/swr/use-exchange-rates", () => ({ useExchangeRates: () => ({ data: [] }) }));
const listed: { current: PaymentMethod[] } = { current: [] };
vi.mock("@/lib/swr/use-payment-methods", () => ({
  useAdminPaymentMethods: () => ({ data: listed.current, isLoading: false, error: undefined, mutate: vi.fn() }),
}));
const { PaymentMethodDialog } = await import("@/components/admin/payment-method-dialog");
const { PaymentMethodsTab } = await import("@/components/admin/payment-methods-tab");

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => storeAdminSession());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  toast.success.mockReset();
  toast.error.mockReset();
});

const pagoMovil = (over: Partial<PaymentMethod> = {}): PaymentMethod => ({
  id: 5,
  name: "Pago Móvil",
  type: "digital",
  active: true,
  details: { telefono: "0414-555-1234" },
  exchangeRateId: null,
  exchangeRate: null,
  referenceRequired: false,
  referenceMinLength: 0,
  ...over,
});

type Call = { url: string; method: string; body: Record<string, unknown> };
function stubApi(answer: (call: Call) => Response = (call) => new Response(JSON.stringify({ ...pagoMovil(), ...call.body }), { status: 201 })) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : {} };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

function openDialog(method: PaymentMethod | null, locale: "es" | "en" = "es") {
  const onSaved = vi.fn();
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <Intl locale={locale}>
        <PaymentMethodDialog method={method} onClose={vi.fn()} onSaved={onSaved} />
      </Intl>
    </SWRConfig>,
  );
  return { onSaved };
}

const required = () => screen.getByRole("checkbox", { name: "Exigir número de referencia" });
const minimum = () => screen.getByLabelText("Mínimo de letras o números");

describe("the method's reference rules", () => {
  it("starts off with a minimum of 0 that can be set only once a reference is required, and saves both", async () => {
    const calls = stubApi();
    const { onSaved } = openDialog(null);
    expect(required()).not.toBeChecked();
    expect(minimum()).toBeDisabled();
    expect(minimum()).toHaveValue(0);
    expect(minimum()).toHaveAttribute("min", "0");
    expect(minimum()).toHaveAttribute("max", "30");

    fireEvent.change(screen.getByLabelText("Nombre *"), { target: { value: "Pago Móvil" } });
    fireEvent.click(required());
    expect(required()).toBeChecked();
    expect(minimum()).toBeEnabled();
    fireEvent.change(minimum(), { target: { value: "6" } });
    fireEvent.click(screen.getByTestId("save-method"));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ url: "/api/admin/payment-methods", method: "POST", body: { name: "Pago Móvil", referenceRequired: true, referenceMinLength: 6 } });
  });

  it("refuses a minimum outside 0 to 30 before sending", async () => {
    const calls = stubApi();
    openDialog(pagoMovil({ referenceRequired: true, referenceMinLength: 8 }));
    expect(required()).toBeChecked();
    expect(minimum()).toHaveValue(8);
    fireEvent.change(minimum(), { target: { value: "31" } });
    fireEvent.click(screen.getByTestId("save-method"));
    await screen.findByText("Debe estar entre 0 y 30");
    expect(minimum()).toHaveAttribute("aria-invalid", "true");
    expect(calls).toHaveLength(0);
  });

  it("sends no minimum once the reference is no longer required", async () => {
    const calls = stubApi((call) => new Response(JSON.stringify({ ...pagoMovil(), ...call.body })));
    openDialog(pagoMovil({ referenceRequired: true, referenceMinLength: 8 }));
    fireEvent.click(required());
    expect(minimum()).toBeDisabled();
    fireEvent.click(screen.getByTestId("save-method"));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ url: "/api/admin/payment-methods/5", method: "PUT", body: { referenceRequired: false, referenceMinLength: 0 } });
  });

  it("shows the server's refusal of the minimum on its field", async () => {
    stubApi(() => new Response(JSON.stringify({ code: "validation_failed", message: "Revisa los datos", fields: { referenceMinLength: "Debe estar entre 0 y 30" } }), { status: 422 }));
    openDialog(pagoMovil({ referenceRequired: true, referenceMinLength: 8 }));
    fireEvent.click(screen.getByTestId("save-method"));
    await screen.findByText("Debe estar entre 0 y 30");
    expect(minimum()).toHaveAttribute("aria-invalid", "true");
  });

  it("speaks English", () => {
    openDialog(null, "en");
    expect(screen.getByRole("checkbox", { name: "Require a payment reference" })).toBeInTheDocument();
    expect(screen.getByLabelText("Minimum letters or digits")).toBeDisabled();
  });

  it("reads a typed minimum: blank is 0, only whole numbers up to 30", () => {
    expect(referenceMinOf("")).toBe(0);
    expect(referenceMinOf(" 6 ")).toBe(6);
    expect(referenceMinOf("30")).toBe(30);
    expect(referenceMinOf("31")).toBeNull();
    expect(referenceMinOf("-1")).toBeNull();
    expect(referenceMinOf("2.5")).toBeNull();
  });
});

describe("the methods list", () => {
  it("says which methods require a reference, with their minimum, in the table and on the cards", () => {
    listed.current = [
      pagoMovil({ id: 1, name: "Pago Móvil", referenceRequired: true, referenceMinLength: 6 }),
      pagoMovil({ id: 2, name: "Transferencia", referenceRequired: true, referenceMinLength: 0 }),
      pagoMovil({ id: 3, name: "Zelle" }),
    ];
    render(
      <SWRConfig value={{ provider: () => new Map() }}>
        <Intl>
          <PaymentMethodsTab />
        </Intl>
      </SWRConfig>,
    );
    const rows = screen.getAllByTestId("method-row");
    expect(within(rows[0]!).getByTestId("method-reference")).toHaveTextContent("Referencia obligatoria (mín. 6)");
    expect(within(rows[1]!).getByTestId("method-reference").textContent).toBe("Referencia obligatoria");
    expect(within(rows[2]!).queryByTestId("method-reference")).toBeNull();
    const cards = screen.getAllByTestId("method-card");
    expect(within(cards[0]!).getByTestId("method-reference")).toHaveTextContent("Referencia obligatoria (mín. 6)");
    expect(within(cards[2]!).queryByTestId("method-reference")).toBeNull();
  });
});
