import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { PurchaseForm } from "@/components/raffle/purchase-form";
import type { LinkedRate, PaymentMethod } from "@/lib/api/types";
import { usdConversionRate } from "@/lib/payment-methods";
import { Intl } from "./intl";

const toastError = vi.fn();
vi.mock("@/lib/notify", () => ({
  notify: { error: (...args: unknown[]) => toastError(...args), success: vi.fn(), warning: vi.fn() },
}));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }) }));

// jsdom has no layout; Radix's checkbox measures itself with a ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const nb = (s: string | null | undefined) => (s ?? "").replace(/\u00a0/g, " ");

const rate = (fromCurrency: string, toCurrency: string, value: string): LinkedRate => ({ id: 1, fromCurrency, toCurrency, rate: value });
const method = (id: number, name: string, exchangeRate: LinkedRate | null): PaymentMethod => ({
  id,
  name,
  type: "bank",
  active: true,
  details: { accountNumber: "0102-0000" },
  exchangeRateId: exchangeRate?.id ?? null,
  exchangeRate,
  referenceRequired: false,
  referenceMinLength: 0,
});

function form(methods: PaymentMethod[], locale: "es" | "en" = "es") {
  const onPurchased = vi.fn();
  render(
    <Intl locale={locale}>
      <PurchaseForm
        raffleId={1}
        tickets={{ numbers: [7, 8] }}
        width={4}
        total="26.00"
        discount="0"
        methods={methods}
        asAdmin={false}
        onPurchased={onPurchased}
        onTaken={vi.fn()}
        onPriceChanged={vi.fn()}
      />
    </Intl>,
  );
  return { onPurchased };
}

describe("converted total", () => {
  it("converts a USD total with a USD rate: Bs with 2 decimals, 0 in the button, and the rate line", () => {
    form([method(1, "Pago Móvil", rate("USD", "VES", "36.5"))]);
    fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "1" } });
    expect(nb(screen.getByTestId("converted-total").textContent)).toBe("Bs 949,00");
    expect(nb(screen.getByTestId("rate-line").textContent)).toBe("Tasa: 1 USD = 36,5000 VES");
    expect(nb(screen.getByRole("button", { name: /Comprar/ }).textContent)).toBe("Comprar 2 boletos · Bs 949");
  });

  it("shows no conversion for a rate from another currency (EUR → VES)", () => {
    form([method(1, "Banco europeo", rate("EUR", "VES", "40"))]);
    fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "1" } });
    expect(nb(screen.getByTestId("converted-total").textContent)).toBe("US$ 26,00");
    expect(screen.queryByTestId("rate-line")).toBeNull();
    expect(nb(screen.getByRole("button", { name: /Comprar/ }).textContent)).toBe("Comprar 2 boletos · US$ 26,00");
  });

  it("shows COP with no decimals", () => {
    form([method(2, "Nequi", rate("USD", "COP", "4000"))]);
    fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "2" } });
    expect(nb(screen.getByTestId("converted-total").textContent)).toBe("COP 104.000");
  });

  it("picks only USD rates to another currency", () => {
    expect(usdConversionRate({ exchangeRate: rate("USD", "VES", "36") })?.toCurrency).toBe("VES");
    expect(usdConversionRate({ exchangeRate: rate("usd", "COP", "4000") })?.toCurrency).toBe("COP");
    expect(usdConversionRate({ exchangeRate: rate("EUR", "VES", "40") })).toBeNull();
    expect(usdConversionRate({ exchangeRate: rate("VES", "USD", "0.02") })).toBeNull();
    expect(usdConversionRate({ exchangeRate: rate("USD", "USD", "1") })).toBeNull();
    expect(usdConversionRate({ exchangeRate: null })).toBeNull();
    expect(usdConversionRate(undefined)).toBeNull();
  });
});

describe("payment methods", () => {
  it("says 'No hay métodos de pago disponibles.' and cannot be submitted without active methods", () => {
    form([{ ...method(1, "Zelle", null), active: false }]);
    expect(screen.getByText("No hay métodos de pago disponibles.")).toBeInTheDocument();
    expect(screen.queryByLabelText("Método de pago")).toBeNull();
    expect(screen.getByRole("button", { name: /Comprar/ })).toBeDisabled();
  });
});

describe("validation on submit", () => {
  it("shows the missing proof together with every other error", async () => {
    toastError.mockReset();
    const { onPurchased } = form([method(1, "Zelle", null)]);
    fireEvent.change(screen.getByLabelText("Nombre completo"), { target: { value: "A" } });
    fireEvent.change(screen.getByLabelText("Correo electrónico"), { target: { value: "ana@" } });
    fireEvent.click(screen.getByRole("button", { name: /Comprar/ }));
    await screen.findByText("Comprobante requerido - Debes subir un comprobante de pago");
    expect(screen.getAllByText("Este campo es requerido")).toHaveLength(1); // the ID
    for (const message of [
      "Nombre debe tener al menos 2 caracteres",
      "Email inválido",
      "El teléfono debe tener al menos 10 dígitos",
      "Método de pago requerido",
      "Debes aceptar los términos",
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText("Comprobante de pago")).toHaveAttribute("aria-invalid", "true");
    expect(toastError).toHaveBeenCalledWith("Comprobante requerido", { description: "Debes subir un comprobante de pago" });
    expect(onPurchased).not.toHaveBeenCalled();
  });

  it("clears the proof error once a valid file is chosen", async () => {
    form([method(1, "Zelle", null)], "en");
    fireEvent.click(screen.getByRole("button", { name: /Buy/ }));
    await screen.findByText("Proof required - You must upload a proof of payment");
    const file = new File(["png"], "pago.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText("Proof of payment"), { target: { files: [file] } });
    await waitFor(() => expect(screen.queryByText("Proof required - You must upload a proof of payment")).toBeNull());
    expect(screen.getByText("Name must be at least 2 characters")).toBeInTheDocument();
  });
});

describe("the payment reference", () => {
  const strict: PaymentMethod = { ...method(3, "Pago Móvil", null), referenceRequired: true, referenceMinLength: 6 };
  const loose = method(1, "Zelle", null);

  afterEach(() => vi.unstubAllGlobals());

  /** Every field but the reference filled in and valid, with `m` chosen. */
  function fillValid(m: PaymentMethod) {
    fireEvent.change(screen.getByLabelText("Nombre completo"), { target: { value: "Ana Pérez" } });
    fireEvent.change(screen.getByLabelText("Cédula o pasaporte"), { target: { value: "V1234567" } });
    fireEvent.change(screen.getByLabelText("Correo electrónico"), { target: { value: "ana@example.com" } });
    fireEvent.change(screen.getByLabelText("Teléfono (WhatsApp)"), { target: { value: "0414 123 4567" } });
    fireEvent.change(screen.getByLabelText("País"), { target: { value: "venezuela" } });
    fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: String(m.id) } });
    fireEvent.change(screen.getByLabelText("Comprobante de pago"), { target: { files: [new File(["png"], "pago.png", { type: "image/png" })] } });
    fireEvent.click(screen.getByRole("checkbox"));
  }

  const referenceInput = () => screen.getByLabelText(/Número de referencia/);
  const submit = () => fireEvent.click(screen.getByRole("button", { name: /Comprar/ }));

  /** The purchase POST's fields, answered with `answer`. */
  function stubPurchase(answer: () => Response) {
    const sent: FormData[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        if (init.body instanceof FormData) sent.push(init.body);
        return answer();
      }),
    );
    return sent;
  }

  it("is an optional text field after the method, marked required with its minimum for a method that asks for one", () => {
    form([loose, strict]);
    const input = referenceInput();
    expect(input).toHaveAttribute("maxLength", "40");
    expect(input).toHaveAttribute("autoComplete", "off");
    expect(input).toHaveAttribute("inputMode", "text");
    expect(input).toHaveAccessibleName("Número de referencia (opcional)");
    expect(input).toHaveAccessibleDescription("La referencia que te dio tu banco al hacer el pago.");
    // After the method's choice, before the proof.
    const method = screen.getByLabelText("Método de pago");
    const proof = screen.getByLabelText("Comprobante de pago");
    expect(method.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(input.compareDocumentPosition(proof) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.change(method, { target: { value: "3" } });
    expect(referenceInput()).toHaveAccessibleName("Número de referencia (obligatorio)");
    expect(referenceInput()).toHaveAccessibleDescription("Al menos 6 letras o números");
    expect(referenceInput()).toHaveAttribute("aria-required", "true");
  });

  it("checks it as the server does: required, at least N letters or digits, allowed characters", async () => {
    const sent = stubPurchase(() => new Response("{}", { status: 500 }));
    form([loose, strict]);
    fillValid(strict);
    submit();
    await screen.findByText("Escribe el número de referencia de tu pago");
    fireEvent.change(referenceInput(), { target: { value: "12-3 4.5" } });
    await screen.findByText("Al menos 6 letras o números");
    fireEvent.change(referenceInput(), { target: { value: "123456$" } });
    await screen.findByText("Solo letras, números, espacios y - . / # _");
    // Another method's rules judge it at once: Zelle asks for no minimum.
    fireEvent.change(referenceInput(), { target: { value: "12-3" } });
    await screen.findByText("Al menos 6 letras o números");
    fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "1" } });
    await waitFor(() => expect(screen.queryByText("Al menos 6 letras o números")).toBeNull());
    expect(referenceInput()).not.toHaveAttribute("aria-invalid");
    expect(sent).toHaveLength(0);
  });

  it("is sent trimmed when typed, and not at all when blank", async () => {
    const sent = stubPurchase(() => new Response(JSON.stringify({ code: "sales_closed", message: "Compras Cerradas" }), { status: 409 }));
    form([loose, strict]);
    fillValid(strict);
    fireEvent.change(referenceInput(), { target: { value: "  0123-4567 89 " } });
    submit();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.get("paymentReference")).toBe("0123-4567 89");
    expect(sent[0]!.get("paymentMethod")).toBe("3");

    fireEvent.change(screen.getByLabelText("Método de pago"), { target: { value: "1" } });
    fireEvent.change(referenceInput(), { target: { value: "   " } });
    submit();
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.has("paymentReference")).toBe(false);
  });

  it("shows the server's field message on the reference", async () => {
    const body = { code: "validation_failed", message: "Revisa los datos", fields: { paymentReference: "Debe tener al menos 8 caracteres" } };
    stubPurchase(() => new Response(JSON.stringify(body), { status: 422 }));
    form([loose, strict]);
    fillValid(strict);
    fireEvent.change(referenceInput(), { target: { value: "1234567" } });
    submit();
    await screen.findByText("Debe tener al menos 8 caracteres");
    expect(referenceInput()).toHaveAttribute("aria-invalid", "true");
  });

  it("says in the server's words that a reference already paid for another purchase", async () => {
    toastError.mockReset();
    const message = "Esta referencia de pago ya se usó en otra compra con este método.";
    stubPurchase(() => new Response(JSON.stringify({ code: "payment_reference_used", message }), { status: 409 }));
    const { onPurchased } = form([loose, strict]);
    fillValid(strict);
    fireEvent.change(referenceInput(), { target: { value: "0123456789" } });
    submit();
    await screen.findByText(message);
    expect(referenceInput()).toHaveAttribute("aria-invalid", "true");
    expect(toastError).toHaveBeenCalledWith("Error al procesar la compra", { description: message, duration: 10000 });
    expect(onPurchased).not.toHaveBeenCalled();
  });
});
